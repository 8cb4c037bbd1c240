// A route's declaration (worker/http/route.ts) is what the Worker does: path parameters are checked with the
// declared schemas before the handler runs (a malformed one answers the API's { error, code } 404, and the handler
// never sees it), and a route takes an Idempotency-Key because its declaration says so (no second list). Shown on a
// small app built with the same pieces as the real one, and on the served OpenAPI document. The real routes' own
// declarations (a project's slug, a render's id, a node's job id, the event stream's lastEventId) are mounted on that
// small app with a handler that counts its runs, and the real Worker answers them as declared.
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import * as z from "zod";
import type { AppEnv } from "../../worker/http/context.ts";
import { handleError } from "../../worker/http/errors.ts";
import { describeZodError } from "../../worker/http/validate.ts";
import { idempotentRoutes } from "../../worker/http/idempotency.ts";
import { declarationById, route } from "../../worker/http/route.ts";
import { json as jsonAnswer } from "../../worker/openapi/operation.ts";
import { api, createProject, json, signIn } from "./helpers.ts";
import { nodeCall, registerNode } from "./node-helpers.ts";

const USER = { id: "route-declarations-user", name: "Decl", email: null, avatarUrl: null, provider: "dev", createdAt: 0 };

/** Two creates alike but for their declarations, and a read with a declared path parameter; each counts its runs. */
function declaredApp() {
  const runs = { idempotent: 0, plain: 0, thing: 0 };
  const made = () => ({ 201: jsonAnswer(z.object({ run: z.number() }), "made") });
  const app = new Hono<AppEnv>();
  app.use("*", async (c, next) => {
    c.set("user", USER);
    c.set("credential", "token");
    await next();
  });
  app.use("*", idempotentRoutes);
  app.post("/things", route({ operationId: "testMakeIdempotent", summary: "make", tag: "studio", access: "user", idempotent: true, responses: made }, (c) => c.json({ run: ++runs.idempotent }, 201)));
  app.post("/others", route({ operationId: "testMakePlain", summary: "make", tag: "studio", access: "user", responses: made }, (c) => c.json({ run: ++runs.plain }, 201)));
  app.get(
    "/things/:n",
    route(
      {
        operationId: "testReadThing", summary: "read", tag: "studio", access: "user",
        request: () => ({ params: z.object({ n: z.string().regex(/^[1-9]\d*$/, "no such thing").transform(Number) }) }),
        responses: () => ({ 200: jsonAnswer(z.object({ n: z.number() }), "the thing") }),
      },
      (c, input) => {
        runs.thing++;
        const n: number = input.param("n"); // typed by the declaration: a number, not a string
        return c.json({ n });
      },
    ),
  );
  app.onError(handleError);
  const call = async (method: string, path: string, headers: Record<string, string> = {}) => {
    const ctx = createExecutionContext();
    const res = await app.request(`http://studio.test${path}`, { method, headers: { "Content-Type": "application/json", ...headers }, body: method === "GET" ? undefined : "{}" }, env, ctx);
    await waitOnExecutionContext(ctx);
    return res;
  };
  return { runs, call };
}

describe("route declarations", () => {
  it("a malformed path parameter answers the declared 404 in the API's error shape, and the handler never runs", async () => {
    const { runs, call } = declaredApp();
    const good = await call("GET", "/things/12");
    expect(good.status).toBe(200);
    expect(await json(good)).toEqual({ n: 12 });
    for (const bad of ["0", "012", "abc", "1.5"]) {
      const res = await call("GET", `/things/${bad}`);
      expect(res.status).toBe(404);
      expect(await json(res)).toEqual({ error: "no such thing", code: "not_found" });
    }
    expect(runs.thing).toBe(1);
  });

  it("a route takes an Idempotency-Key because its declaration says so: a repeat is replayed there, run again elsewhere", async () => {
    const { runs, call } = declaredApp();
    const key = { "Idempotency-Key": "decl-1" };
    const first = await call("POST", "/things", key);
    const again = await call("POST", "/things", key);
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(await json(again)).toEqual(await json(first));
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(runs.idempotent).toBe(1);

    const plainKey = { "Idempotency-Key": "decl-2" };
    await call("POST", "/others", plainKey);
    const plainAgain = await call("POST", "/others", plainKey);
    expect(plainAgain.headers.get("Idempotent-Replayed")).toBeNull();
    expect(runs.plain).toBe(2);
  });

  it("the served document lists the Idempotency-Key exactly on the routes declared idempotent: the five creates", async () => {
    const doc = await json<{ paths: Record<string, Record<string, { operationId: string; parameters?: { name: string; in: string }[] }>> }>(await api(null, "GET", "/api/openapi.json"));
    const operations = Object.values(doc.paths).flatMap((ops) => Object.values(ops));
    const withHeader = operations.filter((op) => op.parameters?.some((p) => p.in === "header" && p.name === "Idempotency-Key")).map((op) => op.operationId);
    const declared = operations.filter((op) => declarationById(op.operationId)?.doc.idempotent).map((op) => op.operationId);
    expect(withHeader.sort()).toEqual(declared.sort());
    expect(declared.sort()).toEqual(["commentIdea", "createProject", "postIdea", "startBatch", "startRender"]);
  });

  it("the served document gives a path parameter the form its declaration checks (an idea's id, a segment's index)", async () => {
    const doc = await json<{ paths: Record<string, Record<string, { parameters?: { name: string; in: string; schema: { pattern?: string } }[] }>> }>(await api(null, "GET", "/api/openapi.json"));
    const param = (path: string, method: string, name: string) => doc.paths[path]?.[method]?.parameters?.find((p) => p.in === "path" && p.name === name);
    expect(param("/api/ideas/{id}", "get", "id")?.schema.pattern).toBe("^[1-9]\\d{0,15}$");
    expect(param("/api/node/jobs/{id}/segments/{index}", "get", "index")?.schema.pattern).toBe("^(0|[1-9]\\d{0,5})$");
  });
});

/** The routes that read a project by its slug, a render by its id, or a node's job by its id, by operationId. */
const PROJECT_ROUTES = ["startRender", "getRender", "cancelRender", "renderEvents", "startBatch", "getBatch", "cancelBatch", "listBatchDeliveries", "projectEvents", "lintProject", "startPreview", "getPreview", "stopPreview", "listFiles", "readFile", "writeFile", "deleteFile", "getProject", "deleteProject", "checkProject", "snapshotProject"];
const WEBHOOK_ROUTES = ["getProjectWebhook", "setProjectWebhook", "deleteProjectWebhook"];
const NODE_JOB_ROUTES = ["nodeListJobFiles", "nodeReadJobFile", "nodeReportProgress", "nodeReportPreview", "nodeReadSegment", "nodePostPlan", "nodeCompleteJob", "nodeWriteJobFile", "nodeUploadOutput"];
const A_JOB = "0b5e3a52-6f0e-4c43-9b0e-6a1f2d3c4b5a";

/** A route mounted at `/probe/:<param>` with the request declaration of the real route `operationId`, whose handler counts its runs. */
function probeApp(operationId: string, param: string) {
  const declared = declarationById(operationId);
  if (!declared) throw new Error(`no route ${operationId}`);
  const runs = { count: 0 };
  const app = new Hono<AppEnv>();
  const extra = param === "id" && operationId === "nodeReadSegment" ? "/:index" : "";
  app.all(
    `/probe/:${param}${extra}`,
    route({ ...declared.doc, operationId: `probe-${operationId}` }, (c) => {
      runs.count++;
      return c.json({ ran: true });
    }),
  );
  app.onError(handleError);
  const call = async (value: string) => {
    const ctx = createExecutionContext();
    const res = await app.request(`http://studio.test/probe/${encodeURIComponent(value)}${extra ? "/0" : ""}`, { method: "GET" }, env, ctx);
    await waitOnExecutionContext(ctx);
    return res;
  };
  return { runs, call };
}

describe("the real routes' declared path parameters", () => {
  it("a project route, a webhook route and a node's job route each refuse a malformed parameter with the 404 a missing one gets, and their handler never runs; the real Worker answers so", async () => {
    await api(null, "GET", "/api/openapi.json"); // the app's routes, and with them their declarations, are loaded
    const cases = [
      ...[...PROJECT_ROUTES, ...WEBHOOK_ROUTES].map((id) => ({ id, param: "slug", good: "my-video-2", bad: ["My Video", "../x", "-lead", "a".repeat(65), "a_b"], missing: (v: string) => `no project named ${v}` })),
      { id: "listRenderDeliveries", param: "id", good: A_JOB, bad: ["nope", `${A_JOB}x`, A_JOB.toUpperCase()], missing: (v: string) => `no render with id ${v}` },
      ...NODE_JOB_ROUTES.map((id) => ({ id, param: "id", good: `${A_JOB}.s12`, bad: ["nope", `${A_JOB}.s01`, `${A_JOB}.x`, `${A_JOB}/..`], missing: () => "no such job held by this node" })),
    ];
    for (const { id, param, good, bad, missing } of cases) {
      const { runs, call } = probeApp(id, param);
      expect((await call(good)).status, `${id} ${good}`).toBe(200);
      for (const value of bad) {
        const res = await call(value);
        expect(res.status, `${id} ${value}`).toBe(404);
        expect(await json(res), `${id} ${value}`).toEqual({ error: missing(value), code: "not_found" });
      }
      expect(runs.count, id).toBe(1);
    }

    // The real Worker answers them so: as it answers a missing project, render or job.
    const s = await signIn("decl-params");
    await createProject(s.token, "Decl Params");
    expect(await json(await api(s.token, "POST", "/api/projects/Decl%20Params/render", {}))).toEqual({ error: "no project named Decl Params", code: "not_found" });
    expect(await json(await api(s.token, "PUT", "/api/projects/Decl_Params/webhook", { url: "https://example.com/hook" }))).toEqual({ error: "no project named Decl_Params", code: "not_found" });
    expect(await json(await api(s.token, "GET", "/api/renders/not-a-render/deliveries"))).toEqual({ error: "no render with id not-a-render", code: "not_found" });
    const key = await registerNode("decl-node");
    const res = await nodeCall(key, "POST", "/jobs/not-a-job/complete", { ok: true });
    expect(res.status).toBe(404);
    expect(await json(res)).toEqual({ error: "no such job held by this node", code: "not_found" });
  });

  it("the render event stream declares lastEventId: a malformed one is a 400 naming it, no stream opened; the document lists it and Last-Event-ID", async () => {
    const s = await signIn("decl-events");
    await createProject(s.token, "Decl Events");
    const bad = await api(s.token, "GET", "/api/projects/decl-events/render/events?lastEventId=abc");
    expect(bad.status).toBe(400);
    expect(bad.headers.get("Content-Type")).toMatch(/^application\/json/);
    expect(await json(bad)).toEqual({ error: "invalid query lastEventId: must be a whole number", code: "invalid_query" });
    const good = await api(s.token, "GET", "/api/projects/decl-events/render/events?lastEventId=0");
    expect(good.status).toBe(200);
    expect(good.headers.get("Content-Type")).toMatch(/^text\/event-stream/);
    await good.body?.cancel();
    const doc = await json<{ paths: Record<string, Record<string, { parameters?: { name: string; in: string }[] }>> }>(await api(null, "GET", "/api/openapi.json"));
    const params = doc.paths["/api/projects/{slug}/render/events"]?.get?.parameters?.map((p) => `${p.in} ${p.name}`);
    expect(params).toEqual(expect.arrayContaining(["path slug", "query lastEventId", "header Last-Event-ID"]));
  });

  it("startBatch reads its body through its declaration, whose refusals name the row as the batch's own checks word them", async () => {
    await api(null, "GET", "/api/openapi.json");
    const body = declarationById("startBatch")?.request().body;
    const schema = body && "json" in body ? body.json : z.never();
    for (const [given, message] of [
      [{ rows: [{ variables: { a: 1 } }, { variables: 7 }] }, "invalid rows[1].variables: "],
      [{ rows: [{ name: "x" }, { name: "x" }] }, 'invalid rows[1].name: "x" is also the name of rows[0]; names are unique in a batch'],
      [{ rows: [{}], wait: true }, "invalid wait: a batch never holds the request"],
    ] as const) {
      const parsed = schema.safeParse(given);
      expect(parsed.success).toBe(false);
      expect(describeZodError(parsed.error!)).toContain(message);
    }
    expect(schema.parse({ rows: [{ name: "one", variables: { a: 1 } }, {}], quality: "draft" })).toMatchObject({
      options: { quality: "draft", wait: false },
      rows: [{ name: "one", variables: { a: 1 } }, { name: null, variables: {} }],
    });
  });
});
