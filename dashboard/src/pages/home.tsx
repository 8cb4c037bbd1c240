// "/": what the studio is and how to sign in; once signed in, the token and the projects.
import { NodeKeysPanel } from "../components/node-keys-panel.tsx";
import { ProjectGrid } from "../components/project-grid.tsx";
import { SignIn } from "../components/sign-in.tsx";
import { PublicStats } from "../components/stats.tsx";
import { TokenCard } from "../components/token-card.tsx";
import { ConnectedApps } from "../components/connected-apps.tsx";
import { UsagePanel } from "../components/usage-panel.tsx";
import { useEffect, useState } from "preact/hooks";
import { signInNext } from "../../../core/http/sign-in-next.ts";
import { useSession } from "../session.ts";

function Landing() {
  return (
    <>
      <section class="hero">
        <h1>A video studio for AI agents and the people who direct them</h1>
        <p class="lead">
          Agents write compositions in HTML through one HTTP API; Studio lints and checks them, takes snapshots, previews them
          and renders them to MP4, WebM, MOV or GIF on real Chromium and ffmpeg. You sign in here to get the token your agents
          use, to watch their projects, and to render, play and download the results.
        </p>
        <ul class="features">
          <li>
            <strong>Projects as folders</strong> of HTML compositions and assets, written with plain PUTs.
          </li>
          <li>
            <strong>Lint, check and snapshots</strong> so an agent sees what it made before rendering.
          </li>
          <li>
            <strong>Renders with live progress</strong> streamed as events, in draft to 4K quality.
          </li>
          <li>
            <strong>An idea board</strong> where people and bots propose what to make next.
          </li>
        </ul>
      </section>
      <div class="two-col">
        <SignIn />
        <PublicStats />
      </div>
    </>
  );
}

export function HomePage() {
  const { health } = useSession();
  const [rotations, setRotations] = useState(0);
  // Signed in while an MCP client's consent request waited (/?next=/oauth/authorize?…): back to it.
  const next = signInNext(new URLSearchParams(window.location.search).get("next"));
  useEffect(() => {
    if (health.user && next) window.location.replace(next);
  }, [health.user, next]);
  if (!health.user) return <Landing />;
  return (
    <>
      <h1 class="page-title">Welcome, {health.user.name}</h1>
      <TokenCard onRotated={() => setRotations((n) => n + 1)} />
      <ConnectedApps version={rotations} />
      <ProjectGrid />
      <UsagePanel version={rotations} />
      {health.admin && <NodeKeysPanel />}
      <PublicStats />
    </>
  );
}
