// A credential's end reaches every room without costing its request a round trip to D1's primary: the rotation reads
// the old token's hash and the user's projects in the batch of its own update, the sign-out its session's projects in
// the batch of its delete (the credential check rides on that batch as well), and the rooms are told by Durable
// Object calls, never D1. A stream is opened for the cost of its route's own reads, and an open stream costs no D1
// work per event (a room re-checks its streams' credentials on a timer, in one query, off every request's path).
// The render stream's route read its project and then the never-rendered snapshot one after the other (two trips);
// now the two reads go together.
// Traced as in credential-gate.test.ts (traced-worker.ts: the Worker's and the rooms' D1 calls on the request's path).
import { describe, expect, it } from "vitest";
import { BASE } from "./helpers.ts";
import { bearer, createProject, send, signIn } from "./traced-worker.ts";

describe("a credential's end and the streams, in round trips to D1's primary", () => {
  it("rotation and sign-out cost one each once the caller is cached, the fan-out to the rooms none", async () => {
    const { token, cookie } = await signIn("Stream Trips Sam");
    for (const name of ["Trips One", "Trips Two", "Trips Three"]) await createProject(token, name);
    await send("/api/me", { headers: bearer(token) }); // caches the token's caller
    const rotated = await send("/api/me/token/rotate", { method: "POST", headers: bearer(token) });
    expect(rotated.res.status, rotated.body).toBe(200);
    expect(rotated.trips, rotated.log.join("\n")).toBe(1);

    await send("/api/me", { headers: { Cookie: cookie } }); // caches the session's caller
    const out = await send("/auth/logout", { method: "POST", headers: { Cookie: cookie, Origin: BASE } });
    expect(out.res.status, out.body).toBe(200);
    expect(out.trips, out.log.join("\n")).toBe(1);
  });

  it("opening a render's stream costs one: the project's check and the never-rendered snapshot read together (it was two)", async () => {
    const { token } = await signIn("Stream Trips Sue");
    const slug = await createProject(token, "Trips Stream");
    await send("/api/me", { headers: bearer(token) });
    // A project that never rendered: the stream opens on the snapshot; a finished render's closes after it, so the
    // traced request (read to its end) ends. Here the render is cancelled at once.
    expect((await send(`/api/projects/${slug}/render`, { method: "POST", headers: bearer(token, { "Content-Type": "application/json" }), body: "{}" })).res.status).toBe(202);
    expect((await send(`/api/projects/${slug}/render`, { method: "DELETE", headers: bearer(token) })).res.status).toBe(200);
    const stream = await send(`/api/projects/${slug}/render/events`, { headers: bearer(token) });
    expect(stream.res.status).toBe(200);
    expect(stream.body).toContain('"status":"cancelled"');
    expect(stream.trips, stream.log.join("\n")).toBe(1);
  });
});
