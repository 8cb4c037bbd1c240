// The shell: loads the session, draws the header, and picks the page for the current address.
import { useCallback, useEffect, useState } from "preact/hooks";
import { ErrorNote } from "./components/error-note.tsx";
import { Header } from "./components/header.tsx";
import { api, errorText } from "./lib/api.ts";
import { useLocation } from "./lib/router.ts";
import type { Health } from "./lib/types.ts";
import { DocsPage } from "./pages/docs.tsx";
import { HomePage } from "./pages/home.tsx";
import { IdeaPage } from "./pages/idea.tsx";
import { IdeasPage } from "./pages/ideas.tsx";
import { ProjectPage } from "./pages/project.tsx";
import { ResearchPage } from "./pages/research.tsx";
import { SessionContext } from "./session.ts";

function titleFor(path: string, query: URLSearchParams): string {
  switch (path) {
    case "/project":
      return `${query.get("slug") ?? "Project"} · Studio`;
    case "/ideas":
      return "Idea board · Studio";
    case "/idea":
      return "Idea · Studio";
    case "/research":
      return query.get("slug") ? `${query.get("slug")} · Research · Studio` : "Research · Studio";
    case "/docs":
      return "API reference · Studio";
    case "/":
      return "Studio";
    default:
      return "Page not found · Studio";
  }
}

/** Any address the dashboard does not have. The Worker answers such addresses with this page and a 404 status. */
function NotFound({ path }: { path: string }) {
  return (
    <section class="panel not-found" data-testid="not-found">
      <p class="code-404" aria-hidden="true">
        404
      </p>
      <h1>Page not found</h1>
      <p>
        There is nothing at <code>{path}</code>.
      </p>
      <p class="row wrap center">
        <a class="button" href="/">
          Your projects
        </a>
        <a class="button ghost" href="/ideas">
          Idea board
        </a>
        <a class="button ghost" href="/docs">
          API reference
        </a>
      </p>
    </section>
  );
}

export function App() {
  const location = useLocation();
  const [health, setHealth] = useState<Health | null>(null);
  const [error, setError] = useState<string | null>(null);

  const refresh = useCallback(async () => {
    try {
      setHealth(await api<Health>("/api/health"));
      setError(null);
    } catch (err) {
      setError(errorText(err));
    }
  }, []);

  useEffect(() => void refresh(), [refresh]);
  useEffect(() => {
    document.title = titleFor(location.path, location.query);
  }, [location]);

  if (!health) {
    return (
      <main id="main" class="container">
        {error ? <ErrorNote message={`Studio is not reachable: ${error}`} onRetry={refresh} /> : <p class="boot">Loading Studio…</p>}
      </main>
    );
  }

  let page;
  switch (location.path) {
    case "/":
      page = <HomePage />;
      break;
    case "/project":
      page = <ProjectPage slug={location.query.get("slug") ?? ""} />;
      break;
    case "/ideas":
      page = <IdeasPage query={location.query} />;
      break;
    case "/idea":
      page = <IdeaPage id={location.query.get("id") ?? ""} />;
      break;
    case "/research":
      page = <ResearchPage slug={location.query.get("slug")} />;
      break;
    case "/docs":
      page = <DocsPage />;
      break;
    default:
      page = <NotFound path={location.path} />;
  }

  return (
    <SessionContext.Provider value={{ health, refresh }}>
      <a class="skip" href="#main" data-native>
        Skip to content
      </a>
      <Header path={location.path} />
      <main id="main" class="container" tabIndex={-1}>
        {page}
      </main>
      <footer class="container footer">
        <span>Studio {health.version}</span>
        <a href="/api/docs" data-native>
          API reference
        </a>
      </footer>
    </SessionContext.Provider>
  );
}
