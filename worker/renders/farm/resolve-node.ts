// Render nodes authenticate with a node key (prefix stn_); only its hash is stored (see `npm run node-key`).
import { registerCredentialLookup } from "../../auth/resolvers.ts";

registerCredentialLookup("node", {
  sql: "SELECT id, name FROM render_nodes WHERE key_hash = ?1",
  params: (hash) => [hash],
  callerOf: (row) => ({ node: { id: String(row.id), name: String(row.name) }, credential: "node" }),
  identityOf: (caller) => caller.node?.id,
});
