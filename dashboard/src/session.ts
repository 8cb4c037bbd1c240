// Who is signed in, from GET /api/health; shared by every page through a context.
import { createContext } from "preact";
import { useContext } from "preact/hooks";
import type { Health } from "./lib/types.ts";

export interface Session {
  health: Health;
  refresh(): Promise<void>;
}

export const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error("useSession outside SessionContext");
  return session;
}
