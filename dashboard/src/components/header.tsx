// Top bar: brand, the main sections, and the signed-in person with sign-out.
import { useState } from "preact/hooks";
import { api, errorText } from "../lib/api.ts";
import { navigate } from "../lib/router.ts";
import { useSession } from "../session.ts";

const SECTIONS = [
  { href: "/", label: "Projects", match: ["/", "/project"] },
  { href: "/ideas", label: "Idea board", match: ["/ideas", "/idea"] },
  { href: "/research", label: "Research", match: ["/research"] },
  { href: "/docs", label: "Docs", match: ["/docs"] },
];

export function Header({ path }: { path: string }) {
  const { health, refresh } = useSession();
  const [busy, setBusy] = useState(false);

  async function signOut() {
    setBusy(true);
    try {
      await api("/auth/logout", { method: "POST" });
      await refresh();
      navigate("/");
    } catch (err) {
      alert(errorText(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <header class="topbar">
      <div class="container topbar-inner">
        <a class="brand" href="/" aria-label="Studio home">
          <span class="brand-mark" aria-hidden="true">
            ▶
          </span>
          Studio
        </a>
        <nav aria-label="Main" class="main-nav">
          <ul>
            {SECTIONS.map((s) => (
              <li key={s.href}>
                <a href={s.href} aria-current={s.match.includes(path) ? "page" : undefined}>
                  {s.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div class="who">
          {health.user ? (
            <>
              <span class="who-name" title={health.user.email ?? undefined}>
                {health.user.name}
              </span>
              <button type="button" class="ghost small" onClick={signOut} disabled={busy}>
                Sign out
              </button>
            </>
          ) : (
            <a class="button small" href="/#sign-in">
              Sign in
            </a>
          )}
        </div>
      </div>
    </header>
  );
}
