// Render nodes authenticate with a node key (prefix stn_); only its hash is stored (see `npm run node-key`).
import { eq } from "drizzle-orm";
import { registerCredentialResolver } from "../auth/resolvers.ts";
import { renderNodes } from "../db/schema/renders.ts";

registerCredentialResolver("node", async (db, keyHash) => {
  const row = await db.query.renderNodes.findFirst({ where: eq(renderNodes.keyHash, keyHash) });
  return row ? { node: { id: row.id, name: row.name }, credential: "node" } : null;
});
