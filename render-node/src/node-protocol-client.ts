// HTTP client of the Studio Worker's render-node job protocol. Every request carries the node key as a bearer token.
import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, stat } from "node:fs/promises";
import { dirname, resolve, sep } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import { z } from "zod";

export const JobSchema = z.object({
  id: z.string().min(1),
  kind: z.enum(["render", "snapshot", "check", "preview"]),
  slug: z.string(),
  options: z.record(z.string(), z.unknown()).default({}),
  composition: z.string().nullish(),
  leaseMs: z.number().positive().default(60_000),
});
export type Job = z.infer<typeof JobSchema>;
export type JobKind = Job["kind"];

const ClaimSchema = z.object({ job: JobSchema });
const FilesSchema = z.object({
  files: z.array(z.object({ path: z.string().min(1), size: z.number().int().nonnegative(), mtime: z.string().optional() })),
});
export type RemoteFile = z.infer<typeof FilesSchema>["files"][number];
const ProgressSchema = z.object({ cancelled: z.boolean() });
const OutputSchema = z.object({ ok: z.literal(true), size: z.number() });

export type NodeClient = ReturnType<typeof createNodeClient>;

/** A client for `baseUrl` (STUDIO_URL) authenticated with `nodeKey` (NODE_KEY). */
export function createNodeClient(baseUrl: string, nodeKey: string) {
  const base = baseUrl.replace(/\/+$/, "");
  const headers = { authorization: `Bearer ${nodeKey}` };

  async function call(method: string, path: string, init: { json?: unknown; signal?: AbortSignal | undefined } = {}): Promise<Response> {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: init.json === undefined ? headers : { ...headers, "content-type": "application/json" },
      body: init.json === undefined ? null : JSON.stringify(init.json),
      signal: init.signal ?? null,
    });
    if (!response.ok && response.status !== 204) {
      const text = await response.text().catch(() => "");
      throw new Error(`${method} ${path}: HTTP ${response.status} ${text.slice(0, 300)}`);
    }
    return response;
  }
  const jobPath = (id: string) => `/api/node/jobs/${encodeURIComponent(id)}`;

  return {
    /** Long-polls for a job; null when none arrived (204). */
    async claim(nodeId: string, signal?: AbortSignal, kinds: readonly JobKind[] = ["render"]): Promise<Job | null> {
      const response = await call("POST", "/api/node/jobs/claim", { json: { nodeId, kinds }, signal });
      if (response.status === 204) return null;
      return ClaimSchema.parse(await response.json()).job;
    },

    /** The project's files with size and mtime (a preview compares listings to notice changes). */
    async listFiles(id: string, signal?: AbortSignal): Promise<RemoteFile[]> {
      return FilesSchema.parse(await (await call("GET", `${jobPath(id)}/files`, { signal })).json()).files;
    },

    /** Downloads every project file of the job (or just `only`) into `dir`; returns the project-relative paths. */
    async downloadFiles(id: string, dir: string, signal?: AbortSignal, only?: readonly RemoteFile[]): Promise<string[]> {
      const files = only ?? FilesSchema.parse(await (await call("GET", `${jobPath(id)}/files`, { signal })).json()).files;
      const root = resolve(dir);
      for (const file of files) {
        const target = resolve(root, file.path);
        if (!target.startsWith(root + sep)) throw new Error(`job file path escapes the project: ${file.path}`);
        const encoded = file.path.split("/").map(encodeURIComponent).join("/");
        const response = await call("GET", `${jobPath(id)}/files/${encoded}`, { signal });
        if (!response.body) throw new Error(`job file ${file.path} has no body`);
        await mkdir(dirname(target), { recursive: true });
        await pipeline(Readable.fromWeb(response.body as WebReadableStream<Uint8Array>), createWriteStream(target));
      }
      return files.map((file) => file.path);
    },

    /** Posts log lines and renews the lease; tells whether the render was cancelled. */
    async postProgress(id: string, lines: string[], stage?: string): Promise<{ cancelled: boolean }> {
      return ProgressSchema.parse(await (await call("POST", `${jobPath(id)}/progress`, { json: stage === undefined ? { lines } : { lines, stage } })).json());
    },

    /** Writes a file into the project (snapshot jobs, under snapshots/ only). */
    async uploadProjectFile(id: string, path: string, bytes: Uint8Array, contentType: string): Promise<{ size: number }> {
      const encoded = path.split("/").map(encodeURIComponent).join("/");
      const response = await fetch(`${base}${jobPath(id)}/files/${encoded}`, {
        method: "PUT",
        headers: { ...headers, "content-type": contentType, "content-length": String(bytes.byteLength) },
        body: bytes as Uint8Array<ArrayBuffer>,
      });
      if (!response.ok) throw new Error(`PUT ${path}: HTTP ${response.status} ${(await response.text()).slice(0, 300)}`);
      return z.object({ size: z.number() }).parse(await response.json());
    },

    /** A preview job tells the Worker its port; false when the preview was stopped meanwhile. */
    async reportPreviewPort(id: string, port: number): Promise<{ cancelled: boolean }> {
      return ProgressSchema.parse(await (await call("POST", `${jobPath(id)}/preview`, { json: { port } })).json());
    },

    /** Streams the output file up with its length and type. */
    async uploadOutput(id: string, file: string, contentType: string): Promise<{ size: number }> {
      const { size } = await stat(file);
      const response = await fetch(`${base}${jobPath(id)}/output`, {
        method: "PUT",
        headers: { ...headers, "content-type": contentType, "content-length": String(size) },
        body: Readable.toWeb(createReadStream(file)) as ReadableStream<Uint8Array>,
        duplex: "half",
      } as RequestInit);
      if (!response.ok) throw new Error(`PUT output: HTTP ${response.status} ${(await response.text()).slice(0, 300)}`);
      return OutputSchema.parse(await response.json());
    },

    async complete(id: string, result: ({ ok: true } | { ok: false; error: string }) & { result?: unknown }): Promise<void> {
      await call("POST", `${jobPath(id)}/complete`, { json: result });
    },
  };
}
