import { it } from "vitest";
import { api } from "./helpers.ts";
it("dump", async () => {
  const res = await api(null, "GET", "/api/openapi.json");
  console.log("DUMPSTART" + (await res.text()) + "DUMPEND");
});
