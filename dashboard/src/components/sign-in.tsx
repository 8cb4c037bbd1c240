// Sign-in choices: the configured OAuth providers, and the development sign-in when health says it is on.
import { useState } from "preact/hooks";
import { api } from "../lib/api.ts";
import { useSession } from "../session.ts";
import { ErrorNote } from "./error-note.tsx";
import { useAction } from "../lib/use-action.ts";
import { signInNext } from "../../../core/http/sign-in-next.ts";

export function SignIn() {
  const { health, refresh } = useSession();
  const [name, setName] = useState("");
  const { busy, error, run } = useAction();
  const { github, google, dev } = health.login;
  // An MCP client's consent request that sent the person here: the provider's callback comes back to it.
  const next = signInNext(new URLSearchParams(window.location.search).get("next"));
  const providerHref = (provider: string) => (next ? `/auth/${provider}?next=${encodeURIComponent(next)}` : `/auth/${provider}`);

  async function devSignIn(event: Event) {
    event.preventDefault();
    await run(async () => {
      await api("/auth/dev/login", { method: "POST", json: { name } });
      await refresh();
    });
  }

  return (
    <section class="panel sign-in" id="sign-in" aria-labelledby="sign-in-title">
      <h2 id="sign-in-title">Sign in</h2>
      {next && <p class="notice">An app asks to connect to your studio: sign in, then you choose what it may do.</p>}
      {!github && !google && !dev && <p>No sign-in method is configured on this studio yet.</p>}
      <div class="providers">
        {github && (
          <a class="button provider" href={providerHref("github")} data-native>
            Sign in with GitHub
          </a>
        )}
        {google && (
          <a class="button provider" href={providerHref("google")} data-native>
            Sign in with Google
          </a>
        )}
      </div>
      {dev && (
        <form class="dev-login" onSubmit={devSignIn}>
          <label for="dev-name">Development sign-in: your name</label>
          <div class="inline-form">
            <input
              id="dev-name"
              name="name"
              autoComplete="nickname"
              required
              maxLength={40}
              value={name}
              onInput={(e) => setName(e.currentTarget.value)}
              placeholder="e.g. Ada"
            />
            <button type="submit" disabled={busy || !name.trim()}>
              {busy ? "Signing in…" : "Sign in"}
            </button>
          </div>
          <p class="muted small-text">Development mode: anyone can sign in with any name. It is off in production.</p>
        </form>
      )}
      <ErrorNote message={error} />
    </section>
  );
}
