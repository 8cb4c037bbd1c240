import { SELF } from "cloudflare:test";
import { expect, it } from "vitest";

it("answers health", async () => {
  const res = await SELF.fetch("http://studio.test/api/health");
  expect(res.status).toBe(200);
  expect(await res.json()).toMatchObject({ ok: true });
});
