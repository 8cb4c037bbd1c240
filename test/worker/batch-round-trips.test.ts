// A batch's routes in few round trips to D1's primary once the caller is cached, the ProjectRoom's D1 work on the
// request's path counted with the Worker's (traced-worker.ts traces the Durable Objects' D1 calls too). The Worker's
// own work is one trip (the credential check rides on the project's read; a render's quote, or a batch's first row's,
// reads beside it: renders/quote-render.ts); a start or a cancel adds the room's
// writes as one more: the render row under the user's cap with its job in one batch (renders/projection.ts admitRender), an
// end's job and render rows in one batch with the webhook's project read beside it (room/render-driver.ts finish). Before
// that the start cost 4 and the cancel 5. The room's trip cannot ride on the Worker's: the room is called only once
// the credential check has passed (auth/gated-bindings.ts).
import { describe, expect, it } from "vitest";
import { bearer, createProject, send, signIn, type Sent } from "./traced-worker.ts";

describe("batch routes", () => {
  it("cost one round trip to the primary, and a start or cancel one more for the room's writes", async () => {
    const { token } = await signIn("Batch Trips Bo");
    const slug = await createProject(token, "Batch Trips");
    const solo = await createProject(token, "Render Trips");
    await send("/api/me", { headers: bearer(token) }); // caches the caller
    const rows = { rows: [{ name: "one", variables: {} }, { name: "two", variables: {} }] };
    const jsonPost = (path: string, body: unknown) => send(path, { method: "POST", headers: bearer(token, { "Content-Type": "application/json" }), body: JSON.stringify(body) });
    const post = () => jsonPost(`/api/projects/${slug}/batch`, rows);
    const calls: [string, number, () => Promise<Sent & { body: string }>][] = [
      ["POST batch", 202, post],
      ["POST batch (in progress: unchanged)", 200, post],
      ["GET batch", 200, () => send(`/api/projects/${slug}/batch`, { headers: bearer(token) })],
      ["GET batch/deliveries", 200, () => send(`/api/projects/${slug}/batch/deliveries`, { headers: bearer(token) })],
      ["DELETE batch", 200, () => send(`/api/projects/${slug}/batch`, { method: "DELETE", headers: bearer(token) })],
      // A render starts and ends through the same room code as a row.
      ["POST render", 202, () => jsonPost(`/api/projects/${solo}/render`, {})],
      ["DELETE render", 200, () => send(`/api/projects/${solo}/render`, { method: "DELETE", headers: bearer(token) })],
    ];
    const counted: Record<string, number> = {};
    const logs: Record<string, string[]> = {};
    for (const [name, status, call] of calls) {
      const { res, body, trips, log } = await call();
      expect(res.status, `${name}: ${body}`).toBe(status);
      counted[name] = trips;
      logs[name] = log;
    }
    // A batch's first row's quote is read beside the project's read, as a render's (the room read it in a trip of its
    // own: 3).
    expect(counted, JSON.stringify(logs, null, 1)).toEqual({
      "POST batch": 2,
      "POST batch (in progress: unchanged)": 1,
      "GET batch": 1,
      "GET batch/deliveries": 1,
      "DELETE batch": 2,
      "POST render": 2,
      "DELETE render": 2,
    });
  });
});
