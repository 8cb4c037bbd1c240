// Capability links: signing, verifying, expiry, tampering, other users and projects, revocation by token rotation
// (pure), and share links for projects and renders through the API.
import { describe, expect, it } from "vitest";
import { capabilityKey } from "../../worker/capabilities/capability-key.ts";
import { readCapability, signCapability, verifyCapability, type CapabilityClaims } from "../../worker/capabilities/capability-token.ts";
import { api, createProject, json, signIn } from "./helpers.ts";
import { claim, nodeCall, registerNode } from "./node-helpers.ts";
import { CONTENT, get, tamper } from "./content-helpers.ts";

describe("capability tokens (pure)", () => {
  const claims: CapabilityClaims = { kind: "project", userId: "u1", id: "p1", expiresAt: 2_000_000_000 };

  it("verify accepts what sign made, until it expires", async () => {
    const key = await capabilityKey("a-secret-of-at-least-16");
    const token = await signCapability(key, claims, "nonce-1");
    expect(token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    expect(readCapability(token)).toEqual(claims);
    expect(await verifyCapability(key, token, "nonce-1", claims.expiresAt - 1)).toEqual({ ok: true, claims });
    expect(await verifyCapability(key, token, "nonce-1", claims.expiresAt)).toEqual({ ok: false, problem: "expired" });
  });

  it("refuses another key, another binding, any changed byte of payload or MAC, and junk", async () => {
    const key = await capabilityKey("a-secret-of-at-least-16");
    const token = await signCapability(key, claims, "nonce-1");
    const now = 1_000;
    const invalid = { ok: false, problem: "invalid" };
    expect(await verifyCapability(await capabilityKey("another-secret-16chars"), token, "nonce-1", now)).toEqual(invalid);
    expect(await verifyCapability(key, token, "nonce-2", now)).toEqual(invalid);
    for (const patch of [{ id: "p2" }, { u: "u2" }, { e: 2_100_000_000 }, { k: "r" }]) {
      expect(await verifyCapability(key, tamper(token, patch), "nonce-1", now), JSON.stringify(patch)).toEqual(invalid);
    }
    const [payload, mac] = token.split(".") as [string, string];
    const flipped = `${payload}.${mac[0] === "A" ? "B" : "A"}${mac.slice(1)}`;
    expect(await verifyCapability(key, flipped, "nonce-1", now)).toEqual(invalid);
    for (const junk of ["", ".", "abc", `${payload}.`, `.${mac}`, `${payload}.${mac}.x`, `${payload}.${mac}==`, "%%%.%%%", tamper(token, { a: "write" })]) {
      expect(await verifyCapability(key, junk, "nonce-1", now), junk).toEqual(invalid);
    }
  });

  it("derives its key apart from the personal-token key: a token's MAC is no capability's MAC", async () => {
    // A personal token is HMAC(TOKEN_SECRET, "<userId>.<nonce>"); the same bytes under the capability key differ.
    const secret = "a-secret-of-at-least-16";
    const enc = new TextEncoder();
    const tokenKey = await crypto.subtle.importKey("raw", enc.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    const message = enc.encode("payload.nonce");
    const a = new Uint8Array(await crypto.subtle.sign("HMAC", tokenKey, message));
    const b = new Uint8Array(await crypto.subtle.sign("HMAC", await capabilityKey(secret), message));
    expect(a).not.toEqual(b);
  });
});

describe("share links", () => {
  it("makes a project link of a chosen lifetime (one day by default, seven at most) and refuses bad input", async () => {
    const s = await signIn("content-share");
    await createProject(s.token, "Shared", { files: { "note.txt": "hello" } });
    const start = Date.now();
    const res = await api(s.token, "POST", "/api/projects/shared/share");
    expect(res.status).toBe(200);
    const link = await json<{ url: string; expiresAt: string }>(res);
    expect(Object.keys(link).sort()).toEqual(["expiresAt", "url"]);
    expect(link.url).toMatch(new RegExp(`^${CONTENT}/c/[^/]+/$`));
    expect(Date.parse(link.expiresAt) - start).toBeGreaterThan(86_390_000);
    expect(Date.parse(link.expiresAt) - start).toBeLessThanOrEqual(86_401_000);
    expect(await (await get(`${link.url}note.txt`)).text()).toBe("hello");
    const week = await json<{ expiresAt: string }>(await api(s.token, "POST", "/api/projects/shared/share", { expiresIn: 604800 }));
    expect(Date.parse(week.expiresAt) - start).toBeGreaterThan(604_790_000);

    for (const body of [{ expiresIn: 604801 }, { expiresIn: 59 }, { expiresIn: 1.5 }, { expiresIn: "3600" }, { render: 5 }]) {
      const bad = await api(s.token, "POST", "/api/projects/shared/share", body);
      expect(bad.status, JSON.stringify(body)).toBe(400);
      expect((await json<{ error: string }>(bad)).error).toMatch(/^invalid (expiresIn|render)/);
    }
    expect((await api(s.token, "POST", "/api/projects/nope/share")).status).toBe(404);
    expect((await api(null, "POST", "/api/projects/shared/share")).status).toBe(401);
    const other = await signIn("content-share-other");
    expect((await api(other.token, "POST", "/api/projects/shared/share")).status).toBe(404);
    expect((await api(s.token, "POST", "/api/projects/shared/share", { render: "shared_2020-01-01_00-00-00.mp4" })).status).toBe(404);
  });

  it("makes a render link that plays the video with Range, and nothing else of the project", async () => {
    const key = await registerNode("content-share-node");
    const s = await signIn("content-share-render");
    await createProject(s.token, "Clip", { files: { "secret.txt": "not in a render link" } });
    const state = await json<{ id: string; filename: string }>(await api(s.token, "POST", "/api/projects/clip/render", { format: "webm" }));
    const job = await claim(key);
    expect(job?.id).toBe(state.id);
    const video = new Uint8Array(500).map((_, i) => i % 251);
    await nodeCall(key, "PUT", `/jobs/${state.id}/output`, video, { "Content-Type": "video/webm" });
    await nodeCall(key, "POST", `/jobs/${state.id}/complete`, { ok: true });

    const link = await json<{ url: string }>(await api(s.token, "POST", "/api/projects/clip/share", { render: state.filename, expiresIn: 3600 }));
    expect(link.url).toMatch(new RegExp(`^${CONTENT}/c/[^/]+/${state.filename}$`));
    const whole = await get(link.url);
    expect(whole.headers.get("Content-Type")).toBe("video/webm");
    expect(new Uint8Array(await whole.arrayBuffer())).toEqual(video);
    const part = await get(link.url, { Range: "bytes=0-9" });
    expect(part.status).toBe(206);
    const root = await get(link.url.slice(0, link.url.lastIndexOf("/") + 1));
    expect(root.status).toBe(302);
    expect(root.headers.get("Location")).toBe(state.filename);
    const base = link.url.slice(0, link.url.lastIndexOf("/") + 1);
    expect((await get(`${base}secret.txt`)).status).toBe(404);
    expect((await get(`${base}index.html`)).status).toBe(404);
    // Another project's share endpoint does not hand out this render.
    await createProject(s.token, "Elsewhere");
    expect((await api(s.token, "POST", "/api/projects/elsewhere/share", { render: state.filename })).status).toBe(404);
    // Renders outlive their project, and so can their links.
    expect((await api(s.token, "DELETE", "/api/projects/clip")).status).toBe(200);
    const orphan = await json<{ url: string }>(await api(s.token, "POST", "/api/projects/clip/share", { render: state.filename }));
    expect((await get(orphan.url)).status).toBe(200);
    // Deleting the render ends the link.
    expect((await api(s.token, "DELETE", `/renders/${state.filename}`)).status).toBe(200);
    expect((await get(link.url)).status).toBe(404);
  });
});
