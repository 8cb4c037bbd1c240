import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { api, BASE, createProject, json, signIn } from "./helpers.ts";

describe("development sign-in and identity", () => {
  it("signs in, sets an HttpOnly Lax session cookie and returns the identity object", async () => {
    const res = await SELF.fetch(`${BASE}/auth/dev/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ name: "alice" }),
    });
    expect(res.status).toBe(200);
    const cookie = res.headers.get("Set-Cookie") ?? "";
    expect(cookie).toMatch(/^studio_session=/);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    const body = await json<{ user: { name: string }; token: string; baseUrl: string; curl: string; docsUrl: string }>(res);
    expect(body.user.name).toBe("alice");
    expect(body.token).toMatch(/^stu_[A-Za-z0-9_-]{40,}$/);
    expect(body.baseUrl).toBe(BASE);
    expect(body.curl).toContain(body.token);
    expect(body.docsUrl).toBe(`${BASE}/api/docs`);
  });

  it("returns the same user and token when the same name signs in again", async () => {
    const a = await signIn("Repeat");
    const b = await signIn("Repeat");
    expect(b.userId).toBe(a.userId);
    expect(b.token).toBe(a.token);
  });

  it("accepts the token as Bearer, X-Studio-Token and ?token=, and the session cookie", async () => {
    const s = await signIn("bob");
    const ways = [
      SELF.fetch(`${BASE}/api/me`, { headers: { Authorization: `Bearer ${s.token}` } }),
      SELF.fetch(`${BASE}/api/me`, { headers: { "X-Studio-Token": s.token } }),
      SELF.fetch(`${BASE}/api/me?token=${s.token}`),
      SELF.fetch(`${BASE}/api/me`, { headers: { Cookie: s.cookie } }),
    ];
    for (const res of await Promise.all(ways)) {
      expect(res.status).toBe(200);
      expect((await json<{ user: { id: string } }>(res)).user.id).toBe(s.userId);
    }
  });

  it("answers 401 with an unauthorized: message for a missing or wrong token", async () => {
    const missing = await SELF.fetch(`${BASE}/api/projects`);
    expect(missing.status).toBe(401);
    expect(await missing.json()).toEqual({ error: "unauthorized: missing token", code: "unauthorized" });
    const wrong = await api("stu_not-a-real-token", "GET", "/api/projects");
    expect(wrong.status).toBe(401);
    expect((await json<{ error: string }>(wrong)).error).toMatch(/^unauthorized: /);
  });

  it("rotation kills the old token at once and the new one works", async () => {
    const s = await signIn("carol");
    const rotated = await api(s.token, "POST", "/api/me/token/rotate");
    expect(rotated.status).toBe(200);
    const body = await json<{ rotated: boolean; token: string; curl: string }>(rotated);
    expect(body.rotated).toBe(true);
    expect(body.token).not.toBe(s.token);
    expect(body.curl).toContain(body.token);
    expect((await api(s.token, "GET", "/api/me")).status).toBe(401);
    const me = await api(body.token, "GET", "/api/me");
    expect(me.status).toBe(200);
    expect((await json<{ token: string }>(me)).token).toBe(body.token);
    // The session still works and now shows the new token.
    const viaCookie = await SELF.fetch(`${BASE}/api/me`, { headers: { Cookie: s.cookie } });
    expect((await json<{ token: string }>(viaCookie)).token).toBe(body.token);
  });

  it("signs out: the session cookie stops working", async () => {
    const s = await signIn("dave");
    // The dashboard's fetch sends its Origin; a cookie write without one is refused (csrf.test.ts).
    const out = await SELF.fetch(`${BASE}/auth/logout`, { method: "POST", headers: { Cookie: s.cookie, Origin: BASE } });
    expect(out.status).toBe(200);
    const after = await SELF.fetch(`${BASE}/api/me`, { headers: { Cookie: s.cookie } });
    expect(after.status).toBe(401);
  });

  it("rejects a bad dev sign-in body with 400 and creates nobody", async () => {
    for (const body of ["{not json", JSON.stringify({ name: 42 }), JSON.stringify({ name: "" }), JSON.stringify({ name: "a<script>" })]) {
      const res = await SELF.fetch(`${BASE}/auth/dev/login`, { method: "POST", body, headers: { "Content-Type": "application/json" } });
      expect(res.status).toBe(400);
      expect(typeof (await json<{ error: string }>(res)).error).toBe("string");
    }
    const stats = await json<{ users: number }>(await SELF.fetch(`${BASE}/api/stats`));
    const again = await SELF.fetch(`${BASE}/auth/dev/login`, { method: "POST", body: "{}", headers: { "Content-Type": "application/json" } });
    expect(again.status).toBe(400);
    expect((await json<{ users: number }>(await SELF.fetch(`${BASE}/api/stats`))).users).toBe(stats.users);
  });

  it("health reports login flags and whether the caller is authorized", async () => {
    const anon = await json<Record<string, unknown>>(await SELF.fetch(`${BASE}/api/health`));
    expect(anon).toMatchObject({ ok: true, baseUrl: BASE, login: { github: true, google: true, dev: true }, authorized: false, user: null });
    expect(typeof anon.version).toBe("string");
    const s = await signIn("erin");
    const authed = await json<{ authorized: boolean; user: { id: string } }>(await api(s.token, "GET", "/api/health"));
    expect(authed.authorized).toBe(true);
    expect(authed.user.id).toBe(s.userId);
  });

  it("GitHub sign-in redirects with a state that the HttpOnly state cookie carries", async () => {
    const res = await SELF.fetch(`${BASE}/auth/github`, { redirect: "manual" });
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get("Location") ?? "");
    expect(location.origin + location.pathname).toBe("https://github.com/login/oauth/authorize");
    expect(location.searchParams.get("client_id")).toBe("test-github-client");
    expect(location.searchParams.get("redirect_uri")).toBe(`${BASE}/auth/github/callback`);
    const state = location.searchParams.get("state");
    const cookie = res.headers.get("Set-Cookie") ?? "";
    expect(state).toBeTruthy();
    expect(cookie).toContain(`studio_oauth_state=${state}`);
    expect(cookie).toMatch(/HttpOnly/i);
  });

  it("Google sign-in adds a PKCE S256 challenge", async () => {
    const res = await SELF.fetch(`${BASE}/auth/google`, { redirect: "manual" });
    const location = new URL(res.headers.get("Location") ?? "");
    expect(location.hostname).toBe("accounts.google.com");
    expect(location.searchParams.get("code_challenge_method")).toBe("S256");
    expect(location.searchParams.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(res.headers.getSetCookie().some((c) => c.startsWith("studio_oauth_verifier="))).toBe(true);
  });

  it("refuses a callback whose state does not match the cookie, and signs nobody in", async () => {
    const begin = await SELF.fetch(`${BASE}/auth/github`, { redirect: "manual" });
    const cookie = (begin.headers.get("Set-Cookie") ?? "").split(";")[0] ?? "";
    const forged = await SELF.fetch(`${BASE}/auth/github/callback?code=abc&state=forged`, { redirect: "manual", headers: { Cookie: cookie } });
    expect(forged.status).toBe(400);
    expect((await json<{ error: string }>(forged)).error).toMatch(/state did not match/);
    expect(forged.headers.getSetCookie().some((c) => c.startsWith("studio_session="))).toBe(false);
    const noCookie = await SELF.fetch(`${BASE}/auth/google/callback?code=abc&state=x`, { redirect: "manual" });
    expect(noCookie.status).toBe(400);
  });

  it("says so when the person declined at the provider (error=access_denied), and signs nobody in", async () => {
    const begin = await SELF.fetch(`${BASE}/auth/github`, { redirect: "manual" });
    const state = new URL(begin.headers.get("Location") ?? "").searchParams.get("state");
    const cookie = (begin.headers.get("Set-Cookie") ?? "").split(";")[0] ?? "";
    const declined = await SELF.fetch(
      `${BASE}/auth/github/callback?error=access_denied&error_description=The+user+has+denied&error_uri=https%3A%2F%2Fdocs.github.com&state=${state}`,
      { redirect: "manual", headers: { Cookie: cookie } },
    );
    expect(declined.status).toBe(400);
    expect((await json<{ error: string }>(declined)).error).toBe("sign-in failed: github answered access_denied; start again from the dashboard");
    expect(declined.headers.getSetCookie().some((c) => c.startsWith("studio_session="))).toBe(false);
  });
});

describe("OAuth sign-in against fake providers", () => {
  async function signInWith(provider: "github" | "google", code: string) {
    const begin = await SELF.fetch(`${BASE}/auth/${provider}`, { redirect: "manual" });
    const state = new URL(begin.headers.get("Location") ?? "").searchParams.get("state");
    const cookies = begin.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
    return SELF.fetch(`${BASE}/auth/${provider}/callback?code=${code}&state=${state}`, { redirect: "manual", headers: { Cookie: cookies } });
  }

  for (const [provider, name] of [["github", "Octo Cat"], ["google", "Gee Oogle"]] as const) {
    it(`${provider}: a good callback creates the user, starts a session and returns to the dashboard`, async () => {
      const res = await signInWith(provider, "good-code");
      expect(res.status).toBe(302);
      expect(res.headers.get("Location")).toBe("/");
      const session = res.headers.getSetCookie().find((c) => c.startsWith("studio_session="))?.split(";")[0] ?? "";
      expect(session).not.toBe("");
      const me = await json<{ user: { name: string; provider: string; email: string }; token: string }>(
        await SELF.fetch(`${BASE}/api/me`, { headers: { Cookie: session } }),
      );
      expect(me.user).toMatchObject({ name, provider });
      expect(me.token).toMatch(/^stu_/);
      // Signing in again is the same user.
      const again = await signInWith(provider, "good-code");
      const session2 = again.headers.getSetCookie().find((c) => c.startsWith("studio_session="))?.split(";")[0] ?? "";
      const me2 = await json<{ user: { id: string } }>(await SELF.fetch(`${BASE}/api/me`, { headers: { Cookie: session2 } }));
      expect(me2.user.id).toBe((await json<{ user: { id: string } }>(await SELF.fetch(`${BASE}/api/me`, { headers: { Cookie: session } }))).user.id);
    });
  }

  it("a code the provider rejects signs nobody in", async () => {
    const res = await signInWith("google", "bad-code");
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(res.headers.getSetCookie().some((c) => c.startsWith("studio_session="))).toBe(false);
  });
});

describe("two users", () => {
  it("see nothing of each other: another user's project answers exactly as a missing one", async () => {
    const ann = await signIn("ann-iso");
    const ben = await signIn("ben-iso");
    await createProject(ann.token, "Secret Plan");
    await api(ann.token, "PUT", "/api/projects/secret-plan/files/assets/notes.txt", "ann's notes");

    const list = await json<{ projects: unknown[] }>(await api(ben.token, "GET", "/api/projects"));
    expect(list.projects).toEqual([]);
    const paths = [
      ["GET", "/api/projects/secret-plan"],
      ["GET", "/api/projects/secret-plan/files"],
      ["GET", "/api/projects/secret-plan/files/assets/notes.txt"],
      ["PUT", "/api/projects/secret-plan/files/assets/notes.txt"],
      ["DELETE", "/api/projects/secret-plan/files/assets/notes.txt"],
      ["DELETE", "/api/projects/secret-plan"],
    ] as const;
    for (const [method, path] of paths) {
      const theirs = await api(ben.token, method, path, method === "PUT" ? "overwritten" : undefined);
      const missing = await api(ben.token, method, path.replace("secret-plan", "no-such-project"), method === "PUT" ? "x" : undefined);
      expect(theirs.status).toBe(404);
      expect((await json<{ error: string }>(theirs)).error).toBe(
        (await json<{ error: string }>(missing)).error.replace("no-such-project", "secret-plan"),
      );
    }
    // Ben may create a project of the same name: slugs are per user.
    expect((await api(ben.token, "POST", "/api/projects", { name: "Secret Plan" })).status).toBe(201);
    // And nothing of Ann's was touched.
    const notes = await api(ann.token, "GET", "/api/projects/secret-plan/files/assets/notes.txt");
    expect(await notes.text()).toBe("ann's notes");
  });
});
