import { describe, expect, it } from "vitest";
import { refusal } from "../src/protocol/node-protocol-client.ts";

describe("a refused call to the Worker", () => {
  it("reads as the Worker's own message and code, not raw JSON, so a render's log says why", async () => {
    const body = JSON.stringify({ error: "storage quota exceeded: you store 5 GiB of your 5 GiB", code: "storage_quota_exceeded", used: 1, limit: 1 });
    const error = await refusal("PUT output", new Response(body, { status: 413 }));
    expect(error.message).toBe("PUT output: storage quota exceeded: you store 5 GiB of your 5 GiB (HTTP 413 storage_quota_exceeded)");
  });

  it("keeps the start of any other body", async () => {
    expect((await refusal("POST /x", new Response("<html>bad gateway</html>", { status: 502 }))).message).toBe("POST /x: HTTP 502 <html>bad gateway</html>");
    expect((await refusal("POST /x", new Response(JSON.stringify({ message: "other shape" }), { status: 500 }))).message).toBe('POST /x: HTTP 500 {"message":"other shape"}');
  });
});
