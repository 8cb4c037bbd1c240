// The one cross-site rule: every write made with the dashboard's session cookie must come from the API origin
// (Origin, or Sec-Fetch-Site: same-origin), and a cookie write's JSON body must be application/json. Each family of
// cookie write is attacked the ways another site could (a forged fetch, a plain HTML form) and must change nothing;
// the same write from the dashboard, and with a token and no Origin at all, works.
import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { crossSiteRefusal } from "../../worker/http/csrf-rule.ts";
import { api, BASE, createProject, json, type Session, signIn } from "./helpers.ts";
import { countRows, postIdea, setEnv } from "./idea-helpers.ts";
import { claim, nodeCall, registerNode } from "./node-helpers.ts";

const EVIL = "https://evil.example";

describe("crossSiteRefusal (the decision alone)", () => {
  const cookie = (method: string, origin?: string, secFetchSite?: string) =>
    crossSiteRefusal({ method, credential: "session", origin, secFetchSite }, BASE);

  it("lets reads through and writes from the API origin", () => {
    for (const method of ["GET", "HEAD", "OPTIONS", "get"]) expect(cookie(method, EVIL, "cross-site")).toBeNull();
    expect(cookie("POST", BASE)).toBeNull();
    expect(cookie("DELETE", BASE, "same-origin")).toBeNull();
    expect(cookie("PUT", undefined, "same-origin")).toBeNull();
    expect(cookie("PATCH", "null", "same-origin")).toBeNull();
  });

  it.each([
    ["another site's Origin", EVIL, undefined],
    ["a look-alike host", "http://studio.test.evil.example", undefined],
    ["the right host over another scheme", "https://studio.test", undefined],
    ["the right host on another port", "http://studio.test:8080", undefined],
    ["the content origin", "http://content.studio.test", undefined],
    ["no Origin and no Sec-Fetch-Site", undefined, undefined],
    ["Origin null without Sec-Fetch-Site", "null", undefined],
    ["Sec-Fetch-Site cross-site", undefined, "cross-site"],
    ["Sec-Fetch-Site same-site", undefined, "same-site"],
    ["our Origin but Sec-Fetch-Site cross-site", BASE, "cross-site"],
  ])("refuses a cookie write with %s", (_, origin, secFetchSite) => {
    expect(cookie("POST", origin, secFetchSite)).toMatch(/\S/);
  });

  it("never checks token, bot-key or node-key callers, nor anonymous ones", () => {
    for (const credential of ["token", "bot", "node", null] as const) {
      expect(crossSiteRefusal({ method: "POST", credential, origin: EVIL, secFetchSite: "cross-site" }, BASE)).toBeNull();
    }
  });
});

interface Target {
  path: string;
  body?: unknown;
}

interface Family {
  name: string;
  method: string;
  /** The route reads a JSON body, so a text/plain body from the dashboard's own origin is a 415. */
  readsJson: boolean;
  /** Makes what the write acts on (with the token) and says where the write goes. */
  prepare(s: Session): Promise<Target>;
  /** What the person would see change, read with their token (or cookie where the cookie is the point). */
  observe(s: Session, target: Target): Promise<unknown>;
}

let counter = 0;
const unique = () => `${Date.now().toString(36)}${(counter++).toString(36)}`;

async function project(s: Session): Promise<string> {
  return (await createProject(s.token, `Target ${unique()}`)).slug;
}

const status = async (res: Response) => res.status;

/** A render that a node has finished, so that /renders/<filename> exists. */
async function finishedRender(s: Session): Promise<string> {
  const key = await registerNode(`csrf-node-${unique()}`);
  const slug = await project(s);
  const started = await json<{ id: string; filename: string }>(await api(s.token, "POST", `/api/projects/${slug}/render`, {}));
  for (let job = await claim(key); job; job = await claim(key)) {
    if (job.id !== started.id) continue; // another test's queued render: left to its lease
    await nodeCall(key, "PUT", `/jobs/${job.id}/output`, new Uint8Array(64));
    await nodeCall(key, "POST", `/jobs/${job.id}/complete`, { ok: true });
    return started.filename;
  }
  throw new Error("the render was never claimed");
}

const families: Family[] = [
  {
    name: "create a project",
    method: "POST",
    readsJson: true,
    prepare: async () => ({ path: "/api/projects", body: { name: `Forged ${unique()}` } }),
    observe: async (s) => (await json<{ projects: { name: string }[] }>(await api(s.token, "GET", "/api/projects"))).projects.map((p) => p.name),
  },
  {
    name: "delete a project",
    method: "DELETE",
    readsJson: false,
    prepare: async (s) => ({ path: `/api/projects/${await project(s)}` }),
    observe: async (s, t) => status(await api(s.token, "GET", t.path)),
  },
  {
    name: "write a file",
    method: "PUT",
    readsJson: false,
    prepare: async (s) => ({ path: `/api/projects/${await project(s)}/files/assets/notes.txt`, body: "forged bytes" }),
    observe: async (s, t) => {
      const res = await api(s.token, "GET", t.path);
      return [res.status, await res.text()];
    },
  },
  {
    name: "delete a file",
    method: "DELETE",
    readsJson: false,
    prepare: async (s) => {
      const path = `/api/projects/${await project(s)}/files/assets/keep.txt`;
      expect((await api(s.token, "PUT", path, "keep me")).status).toBe(200);
      return { path };
    },
    observe: async (s, t) => status(await api(s.token, "GET", t.path)),
  },
  {
    name: "start a render",
    method: "POST",
    readsJson: true,
    prepare: async (s) => ({ path: `/api/projects/${await project(s)}/render`, body: { quality: "draft" } }),
    observe: async (s, t) => (await json<{ status: string }>(await api(s.token, "GET", t.path))).status,
  },
  {
    name: "cancel a render",
    method: "DELETE",
    readsJson: false,
    prepare: async (s) => {
      const path = `/api/projects/${await project(s)}/render`;
      expect((await api(s.token, "POST", path, {})).status).toBe(202);
      return { path };
    },
    observe: async (s, t) => (await json<{ status: string }>(await api(s.token, "GET", t.path))).status,
  },
  {
    name: "delete a rendered video",
    method: "DELETE",
    readsJson: false,
    prepare: async (s) => ({ path: `/renders/${await finishedRender(s)}` }),
    observe: async (s, t) => status(await api(s.token, "GET", t.path)),
  },
  {
    name: "rotate the API token",
    method: "POST",
    readsJson: false,
    prepare: async () => ({ path: "/api/me/token/rotate" }),
    observe: async (s) => status(await api(s.token, "GET", "/api/me")),
  },
  {
    name: "sign out",
    method: "POST",
    readsJson: false,
    prepare: async () => ({ path: "/auth/logout" }),
    observe: async (s) => status(await SELF.fetch(`${BASE}/api/me`, { headers: { Cookie: s.cookie } })),
  },
  {
    name: "post an idea",
    method: "POST",
    readsJson: true,
    prepare: async () => ({ path: "/api/ideas", body: { title: `Forged idea ${unique()}`, body: "written by another site" } }),
    observe: async () => countRows("ideas"),
  },
  {
    name: "vote for an idea",
    method: "POST",
    readsJson: false,
    prepare: async () => {
      const author = await signIn(`csrf-author-${unique()}`);
      return { path: `/api/ideas/${(await postIdea(author.token, `Votable idea ${unique()}`)).id}/vote` };
    },
    observe: async (s, t) => (await json<{ idea: { votes: number } }>(await api(s.token, "GET", t.path.replace(/\/vote$/, "")))).idea.votes,
  },
  {
    name: "comment on an idea",
    method: "POST",
    readsJson: true,
    prepare: async (s) => ({ path: `/api/ideas/${(await postIdea(s.token, `Commentable idea ${unique()}`)).id}/comments`, body: { body: "forged comment" } }),
    observe: async (s, t) =>
      (await json<{ comments: unknown[] }>(await api(s.token, "GET", t.path.replace(/\/comments$/, "")))).comments.length,
  },
  {
    name: "write a research record (as an admin)",
    method: "PUT",
    readsJson: true,
    prepare: async () => {
      const slug = `forged-${unique()}`;
      return { path: `/api/research/${slug}`, body: { name: "Forged research", body_md: "# forged" } };
    },
    observe: async (s, t) => status(await api(s.token, "GET", t.path)),
  },
];

function cookieWrite(s: Session, family: Family, target: Target, headers: Record<string, string>, body: unknown = target.body) {
  const init: RequestInit & { headers: Record<string, string> } = { method: family.method, headers: { Cookie: s.cookie, ...headers } };
  if (typeof body === "string") init.body = body;
  else if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers["Content-Type"] ??= "application/json";
  }
  return SELF.fetch(`${BASE}${target.path}`, init);
}

/** Signs someone in; the research family needs them to be an admin for the length of the test. */
async function person(family: Family): Promise<{ s: Session; restore: () => void }> {
  const s = await signIn(`csrf-${unique()}`);
  const restore = family.name.includes("research") ? setEnv({ ADMIN_USER_IDS: s.userId }) : () => undefined;
  return { s, restore };
}

const FORGED: Record<string, string>[] = [
  { Origin: EVIL },
  { Origin: EVIL, "Sec-Fetch-Site": "cross-site" },
  { "Sec-Fetch-Site": "cross-site" },
  { Origin: "http://studio.test.evil.example" },
  { Origin: "null" },
  {},
];

describe.each(families)("cookie write: $name", (family) => {
  it("refuses every cross-site spelling with 403, and a plain HTML form too, changing nothing", async () => {
    const { s, restore } = await person(family);
    try {
      const target = await family.prepare(s);
      const before = await family.observe(s, target);
      for (const headers of FORGED) {
        const res = await cookieWrite(s, family, target, headers);
        expect(res.status, JSON.stringify(headers)).toBe(403);
        expect((await json<{ error: string }>(res)).error).toMatch(/^forbidden: cross-site request refused \(.+\)$/);
      }
      // What a <form method=post enctype=text/plain> on another site sends: its Origin and a body that parses as JSON.
      const form = await cookieWrite(s, family, target, { Origin: EVIL, "Content-Type": "text/plain" }, JSON.stringify(target.body ?? {}));
      expect(form.status).toBe(403);
      expect(await family.observe(s, target)).toEqual(before);
    } finally {
      restore();
    }
  });

  if (family.readsJson) {
    it("refuses a text/plain body even from the dashboard's origin (415), changing nothing", async () => {
      const { s, restore } = await person(family);
      try {
        const target = await family.prepare(s);
        const before = await family.observe(s, target);
        for (const type of ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"]) {
          const res = await cookieWrite(s, family, target, { Origin: BASE, "Content-Type": type }, JSON.stringify(target.body));
          expect(res.status, type).toBe(415);
          expect((await json<{ error: string }>(res)).error).toMatch(/^unsupported media type: .*application\/json/);
        }
        expect(await family.observe(s, target)).toEqual(before);
      } finally {
        restore();
      }
    });
  }

  it("works from the dashboard's origin (Origin, or Sec-Fetch-Site: same-origin)", async () => {
    const dashboard: Record<string, string>[] = [{ Origin: BASE, "Sec-Fetch-Site": "same-origin" }, { "Sec-Fetch-Site": "same-origin" }];
    for (const headers of dashboard) {
      const { s, restore } = await person(family);
      try {
        const target = await family.prepare(s);
        const before = await family.observe(s, target);
        const res = await cookieWrite(s, family, target, headers);
        expect(res.status, `${JSON.stringify(headers)}: ${await res.clone().text()}`).toBeLessThan(300);
        expect(await family.observe(s, target)).not.toEqual(before);
      } finally {
        restore();
      }
    }
  });

  it("works with a Bearer token and no Origin at all (agents, curl)", async () => {
    const { s, restore } = await person(family);
    try {
      const target = await family.prepare(s);
      const before = await family.observe(s, target);
      // Token callers keep their leniency: a JSON body sent as curl -d sends it (urlencoded) is still read.
      const headers: Record<string, string> = family.readsJson ? { "Content-Type": "application/x-www-form-urlencoded" } : {};
      const body = family.readsJson ? JSON.stringify(target.body) : target.body;
      const res = await api(s.token, family.method, target.path, body, headers);
      expect(res.status, await res.clone().text()).toBeLessThan(300);
      // Signing out with a token ends no cookie session; every other write shows.
      if (family.name !== "sign out") expect(await family.observe(s, target)).not.toEqual(before);
    } finally {
      restore();
    }
  });
});

// A token in the request (even a bogus one) means `identify` never reads the cookie; sign-out reads it itself. The
// rule lives in the cookie's one reader, so another site cannot sign a person out by adding ?token= or junk.
describe("sign-out reads the session cookie through the same rule, whatever else the request carries", () => {
  const me = (s: Session) => SELF.fetch(`${BASE}/api/me`, { headers: { Cookie: s.cookie } });
  const DISTRACTIONS: Array<{ query: string; headers: Record<string, string> }> = [
    { query: "?token=x", headers: {} },
    { query: "?token=stu_bogus", headers: {} },
    { query: "", headers: { Authorization: "Bearer junk" } },
    { query: "", headers: { Authorization: "Basic Zm9vOmJhcg==" } },
    { query: "", headers: { "X-Studio-Token": "stb_not-a-key" } },
    { query: "?token=x", headers: { Authorization: "junk" } },
  ];

  it("a cross-site sign-out carrying a bogus token is refused (403) and the session stays valid", async () => {
    const s = await signIn(`csrf-logout-${unique()}`);
    for (const { query, headers } of DISTRACTIONS) {
      for (const site of FORGED) {
        const label = JSON.stringify({ query, headers, site });
        const res = await SELF.fetch(`${BASE}/auth/logout${query}`, { method: "POST", headers: { Cookie: s.cookie, ...headers, ...site } });
        expect(res.status, label).toBe(403);
        expect(await json(res), label).toMatchObject({ code: "cross_site_refused", error: expect.stringMatching(/^forbidden: cross-site request refused/) });
        expect(res.headers.get("Set-Cookie") ?? "", label).not.toMatch(/studio_session=;|studio_session=\s*;|Max-Age=0/);
      }
      // A link (GET) to sign-out from another site signs nobody out either.
      await SELF.fetch(`${BASE}/auth/logout${query}`, { headers: { Cookie: s.cookie, ...headers, "Sec-Fetch-Site": "cross-site" }, redirect: "manual" });
    }
    expect((await me(s)).status).toBe(200);
  });

  it("the same sign-out from the dashboard's origin still ends the session, bogus token or not", async () => {
    for (const { query, headers } of DISTRACTIONS) {
      const s = await signIn(`csrf-logout-ok-${unique()}`);
      const res = await SELF.fetch(`${BASE}/auth/logout${query}`, {
        method: "POST",
        headers: { Cookie: s.cookie, ...headers, Origin: BASE, "Sec-Fetch-Site": "same-origin" },
      });
      expect(res.status, JSON.stringify({ query, headers })).toBe(200);
      expect((await me(s)).status).toBe(401);
    }
  });
});
