// A route's declaration (worker/http/route.ts) is what the Worker does: path parameters are checked with the
// declared schemas before the handler runs (a malformed one answers the API's { error, code } 404, and the handler
// never sees it), and a route takes an Idempotency-Key because its declaration says so (no second list). Shown on a
// small app built with the same pieces as the real one, and on the served OpenAPI document.
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import * as z from "zod";
import type { AppEnv } from "../../worker/http/context.ts";
import { handleError } from "../../worker/http/errors.ts";
import { idempotentRoutes } from "../../worker/http/idempotency.ts";
import { declarationById, route } from "../../worker/http/route.ts";
import { json as jsonAnswer } from "../../worker/openapi/operation.ts";
import { api, json } from "./helpers.ts";

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
