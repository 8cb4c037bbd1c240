// Capability links: sealing, signing, verifying, expiry, tampering, opacity (no decoding shows whose or what),
// other users and projects, revocation by token rotation (pure), and share links for projects and renders
// through the API.
import { describe, expect, it } from "vitest";
import { capabilityKeys } from "../../worker/capabilities/capability-key.ts";
import { openCapability, signCapability, verifyCapability, type CapabilityClaims } from "../../worker/capabilities/capability-token.ts";
import { api, createProject, json, signIn } from "./helpers.ts";
import { claim, nodeCall, registerNode } from "./node-helpers.ts";
import { capabilityOf, CONTENT, detail, get, projectId, tamper } from "./content-helpers.ts";

describe("capability tokens (pure)", () => {
  const SECRET = "a-secret-of-at-least-16";
  const claims: CapabilityClaims = { kind: "project", userId: "u1", id: "p1", expiresAt: 2_000_000_000 };

  it("verify accepts what sign made, until it expires", async () => {
    const keys = await capabilityKeys(SECRET);
    const token = await signCapability(keys, claims, "nonce-1");
    expect(token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    expect(await openCapability(keys, token)).toEqual(claims);
    expect(await verifyCapability(keys, token, "nonce-1", claims.expiresAt - 1)).toEqual({ ok: true, claims });
    expect(await verifyCapability(keys, token, "nonce-1", claims.expiresAt)).toEqual({ ok: false, problem: "expired" });
  });

  it("refuses another key, another binding, any changed byte of the sealed claims or MAC, and junk", async () => {
    const keys = await capabilityKeys(SECRET);
    const token = await signCapability(keys, claims, "nonce-1");
    const now = 1_000;
    const invalid = { ok: false, problem: "invalid" };
    const otherKeys = await capabilityKeys("another-secret-16chars");
    expect(await openCapability(otherKeys, token)).toBeNull();
    expect(await verifyCapability(otherKeys, token, "nonce-1", now)).toEqual(invalid);
    expect(await verifyCapability(keys, token, "nonce-2", now)).toEqual(invalid);
    // Even a forger who could encrypt with the studio's key (nobody can) gets nothing past the MAC.
    for (const patch of [{ id: "p2" }, { u: "u2" }, { e: 2_100_000_000 }, { k: "r" }]) {
      expect(await verifyCapability(keys, await tamper(token, patch, SECRET), "nonce-1", now), JSON.stringify(patch)).toEqual(invalid);
    }
    const [sealed, mac] = token.split(".") as [string, string];
    const flip = (text: string, at: number) => `${text.slice(0, at)}${text[at] === "A" ? "B" : "A"}${text.slice(at + 1)}`;
    expect(await verifyCapability(keys, `${sealed}.${flip(mac, 0)}`, "nonce-1", now)).toEqual(invalid);
    // Any changed character of the sealed part (IV, ciphertext or GCM tag) fails to decrypt.
    for (const at of [0, 10, 20, Math.floor(sealed.length / 2), sealed.length - 2]) {
      const changed = `${flip(sealed, at)}.${mac}`;
      expect(await openCapability(keys, changed), String(at)).toBeNull();
      expect(await verifyCapability(keys, changed, "nonce-1", now), String(at)).toEqual(invalid);
    }
    const junk = ["", ".", "abc", `${sealed}.`, `.${mac}`, `${sealed}.${mac}.x`, `${sealed}.${mac}==`, "%%%.%%%", await tamper(token, { a: "write" }, SECRET), await tamper(token, { v: 1 }, SECRET)];
    for (const text of junk) {
      expect(await verifyCapability(keys, text, "nonce-1", now), text).toEqual(invalid);
    }
  });

  it("is opaque: no base64 or base64url reading of any part shows the user id, row id or any claim", async () => {
    const keys = await capabilityKeys(SECRET);
    const userId = "0f8e2c4a-user-id-7b19";
    const rowId = "c0ffee42-project-row-9d3e";
    const token = await signCapability(keys, { kind: "project", userId, id: rowId, expiresAt: 2_000_000_000 }, "nonce-1");
    for (const text of readingsOf(token)) {
      for (const secret of [userId, rowId, "2000000000", '"u"', '"read"', "read"]) expect(text, secret).not.toContain(secret);
    }
    // Control: the same readings do find them in a signed-only payload (the format links had before).
    const readable = btoa(JSON.stringify({ v: 1, k: "p", u: userId, id: rowId, e: 2_000_000_000, a: "read" })).replace(/=+$/, "");
    expect(readingsOf(`${readable}.${token.split(".")[1]}`).some((text) => text.includes(userId) && text.includes(rowId))).toBe(true);
    expect(readingsOf(`x${readable}.${token.split(".")[1]}`).some((text) => text.includes(userId))).toBe(true);
    // Two links with the same claims share nothing either (a fresh IV each time).
    const again = await signCapability(keys, { kind: "project", userId, id: rowId, expiresAt: 2_000_000_000 }, "nonce-1");
    expect(again.split(".")[0]).not.toBe(token.split(".")[0]);
  });

  it("derives its keys apart from the personal-token key: a token's MAC is no capability's MAC", async () => {
    // A personal token is HMAC(TOKEN_SECRET, "<userId>.<nonce>"); the same bytes under the capability key differ.
    const enc = new TextEncoder();
    const tokenKey = await crypto.subtle.importKey("raw", enc.encode(SECRET), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    const message = enc.encode("payload.nonce");
    const a = new Uint8Array(await crypto.subtle.sign("HMAC", tokenKey, message));
    const b = new Uint8Array(await crypto.subtle.sign("HMAC", (await capabilityKeys(SECRET)).mac, message));
    expect(a).not.toEqual(b);
  });
});

/** Every way a person might decode a capability: the whole and each dot-separated part, as is and as base64/base64url. */
function readingsOf(token: string): string[] {
  const decode = (text: string) => {
    const out: string[] = [];
    for (const alphabet of [text, text.replace(/-/g, "+").replace(/_/g, "/")]) {
      for (const padded of [alphabet, alphabet + "=".repeat((4 - (alphabet.length % 4)) % 4)]) {
        try {
          out.push(atob(padded));
        } catch {
          // not decodable this way
        }
      }
    }
    // Also from every offset mod 4, in case a field starts mid-group.
    for (let skip = 1; skip < 4; skip++) {
      const tail = text.slice(skip).replace(/-/g, "+").replace(/_/g, "/");
      try {
        out.push(atob(tail.slice(0, tail.length - (tail.length % 4))));
      } catch {
        // not decodable this way
      }
    }
    return out;
  };
  const parts = [token, ...token.split(".")];
  return [...parts, ...parts.flatMap(decode)];
}

describe("share links", () => {
  it("hands out opaque capabilities: no decoding shows the owner's user id or the project's slug or row id", async () => {
    const s = await signIn("content-opaque");
    await createProject(s.token, "Opaque Plans", { files: { "note.txt": "hello" } });
    const rowId = await projectId(s.userId, "opaque-plans");
    const links = [
      (await json<{ url: string }>(await api(s.token, "POST", "/api/projects/opaque-plans/share"))).url,
      (await detail(s.token, "opaque-plans")).contentUrl,
    ];
    for (const url of links) {
      const capability = capabilityOf(url);
      for (const text of readingsOf(capability)) {
        for (const secret of [s.userId, rowId, "opaque-plans", "opaque"]) expect(text, `${secret} in ${url}`).not.toContain(secret);
      }
      expect(await (await get(`${url}note.txt`)).text()).toBe("hello"); // and it still works
    }
  });

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
