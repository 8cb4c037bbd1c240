// HTTP client of the Studio Worker's render-node job protocol. Every request carries the node key as a bearer token.
import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, readFile, stat } from "node:fs/promises";
import { dirname, resolve, sep } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import type { JobKind } from "../../../core/protocol/job-kinds.ts";
import {
  CancelledResponseSchema,
  ClaimAnswerSchema,
  CompleteResponseSchema,
  FilesResponseSchema,
  JOB_ATTEMPT_HEADER,
  ManifestResponseSchema,
  OutputResponseSchema,
  PlanResponseSchema,
  PosterResponseSchema,
  ProjectFileWriteResponseSchema,
  ReleaseResponseSchema,
  type ClaimedJob,
  type CompleteRequest,
  type JobFile,
  type ProgressRequest,
  type ReleaseRequest,
} from "../../../core/protocol/node-routes.ts";
import type { RenderPlan, SegmentRange } from "../../../core/protocol/render-plan.ts";

export type Job = ClaimedJob;
export type { JobKind };
export type RemoteFile = JobFile;

export type NodeClient = ReturnType<typeof createNodeClient>;

/**
 * The error a refused call becomes: the Worker's own message when the body is its error shape ({ error, code }), so
 * a render's log reads "PUT output: storage quota exceeded: … (HTTP 413 storage_quota_exceeded)", else the start
 * of the body.
 */
export async function refusal(what: string, response: Response): Promise<Error> {
  // A body that breaks off is told as none: the status still names the refusal.
  const text = await response.text().catch((error: unknown) => `(the body could not be read: ${error instanceof Error ? error.message : String(error)})`);
  try {
    const body = JSON.parse(text) as { error?: unknown; code?: unknown };
    if (typeof body.error === "string") {
      return new Error(`${what}: ${body.error} (HTTP ${response.status}${typeof body.code === "string" ? ` ${body.code}` : ""})`);
    }
  } catch (error) {
    // Not JSON (a proxy's HTML page, say): the text as it came, below.
    if (!(error instanceof SyntaxError)) throw error;
  }
  return new Error(`${what}: HTTP ${response.status} ${text.slice(0, 300)}`);
}

/** A job's project files downloaded side by side (downloadFiles). */
const DOWNLOADS_AT_ONCE = 4;

/** A client for `baseUrl` (STUDIO_URL) authenticated with `nodeKey` (NODE_KEY). */
export function createNodeClient(baseUrl: string, nodeKey: string) {
  const base = baseUrl.replace(/\/+$/, "");
  const auth = { authorization: `Bearer ${nodeKey}` };
  // The attempt this process claimed each job in, named on every call about the job (JOB_ATTEMPT_HEADER): another
  // process of the same key that claims the job after this one's lease lapsed holds a later attempt, and this
  // process's late calls are then answered as a stranger's. Forgotten once the job is completed.
  const attempts = new Map<string, number>();
  const jobHeaders = (id: string): Record<string, string> => {
    const attempt = attempts.get(id);
    return attempt === undefined ? auth : { ...auth, [JOB_ATTEMPT_HEADER]: String(attempt) };
  };

  async function call(method: string, path: string, init: { json?: unknown; signal?: AbortSignal | undefined; job?: string } = {}): Promise<Response> {
    const headers = init.job === undefined ? auth : jobHeaders(init.job);
    const response = await fetch(`${base}${path}`, {
      method,
      headers: init.json === undefined ? headers : { ...headers, "content-type": "application/json" },
      body: init.json === undefined ? null : JSON.stringify(init.json),
      signal: init.signal ?? null,
    });
    if (!response.ok && response.status !== 204) throw await refusal(`${method} ${path}`, response);
    return response;
  }
  const jobPath = (id: string) => `/api/node/jobs/${encodeURIComponent(id)}`;

  return {
    /**
     * Long-polls for a job. A job comes only from a claim that found it queued the moment it asked; null when none was:
     * either none came within the wait (204) or work came while this claim waited (`claimAgain`: the Worker hands no
     * job to a claim that waited, its node might be gone). Either way the caller claims again at once.
     */
    async claim(nodeId: string, signal?: AbortSignal, kinds: readonly JobKind[] = ["render"]): Promise<Job | null> {
      const response = await call("POST", "/api/node/jobs/claim", { json: { nodeId, kinds }, signal });
      if (response.status === 204) return null;
      const { job } = ClaimAnswerSchema.parse(await response.json());
      if (job) attempts.set(job.id, job.attempt);
      return job;
    },

    /** The project's files with size and mtime (a preview compares listings to notice changes). */
    async listFiles(id: string, signal?: AbortSignal): Promise<RemoteFile[]> {
      return FilesResponseSchema.parse(await (await call("GET", `${jobPath(id)}/files`, { signal, job: id })).json()).files;
    },

    /**
     * Downloads every project file of the job (or just `only`) into `dir`, DOWNLOADS_AT_ONCE side by side (each is a
     * round trip through the Worker to R2; one after another they were most of a render's download); returns the
     * project-relative paths. On a failure no further file is started, and the first error is thrown once the
     * downloads under way have ended: nothing is left writing into `dir`.
     */
    async downloadFiles(id: string, dir: string, signal?: AbortSignal, only?: readonly RemoteFile[]): Promise<string[]> {
      const files = only ?? FilesResponseSchema.parse(await (await call("GET", `${jobPath(id)}/files`, { signal, job: id })).json()).files;
      const root = resolve(dir);
      const targets = files.map((file) => {
        const target = resolve(root, file.path);
        if (!target.startsWith(root + sep)) throw new Error(`job file path escapes the project: ${file.path}`);
        return { file, target };
      });
      const download = async ({ file, target }: (typeof targets)[number]) => {
        const encoded = file.path.split("/").map(encodeURIComponent).join("/");
        const response = await call("GET", `${jobPath(id)}/files/${encoded}`, { signal, job: id });
        if (!response.body) throw new Error(`job file ${file.path} has no body`);
        await mkdir(dirname(target), { recursive: true });
        await pipeline(Readable.fromWeb(response.body as WebReadableStream<Uint8Array>), createWriteStream(target));
      };
      const queue = [...targets];
      const failures: unknown[] = [];
      const downloader = async () => {
        for (let next = queue.shift(); next && failures.length === 0; next = queue.shift()) {
          try {
            await download(next);
          } catch (error) {
            failures.push(error);
          }
        }
      };
      await Promise.all(Array.from({ length: Math.min(DOWNLOADS_AT_ONCE, queue.length) }, downloader));
      if (failures.length) throw failures[0];
      return files.map((file) => file.path);
    },

    /** A render job handed a previous render (Job.carryFrom) downloads its output into `path`. */
    async downloadPreviousOutput(id: string, path: string, signal?: AbortSignal): Promise<void> {
      const response = await call("GET", `${jobPath(id)}/previous/output`, { signal, job: id });
      if (!response.body) throw new Error("the previous render's output has no body");
      await pipeline(Readable.fromWeb(response.body as WebReadableStream<Uint8Array>), createWriteStream(path));
    },

    /** …and its carry manifest, as the text it was stored as (read with render-node/src/carry/carry-manifest.ts). */
    async readPreviousManifest(id: string, signal?: AbortSignal): Promise<string> {
      return (await call("GET", `${jobPath(id)}/previous/manifest`, { signal, job: id })).text();
    },

    /** A render job's carry manifest (JSON), uploaded beside its output for the next render to carry from. */
    async uploadManifest(id: string, text: string): Promise<{ size: number }> {
      const bytes = new TextEncoder().encode(text);
      const response = await fetch(`${base}${jobPath(id)}/manifest`, {
        method: "PUT",
        headers: { ...jobHeaders(id), "content-type": "application/json", "content-length": String(bytes.byteLength) },
        body: bytes,
      });
      if (!response.ok) throw await refusal("PUT manifest", response);
      return ManifestResponseSchema.parse(await response.json());
    },

    /** A join job downloads one segment file of its render into `path`. */
    async downloadSegment(id: string, index: number, path: string, signal?: AbortSignal): Promise<void> {
      const response = await call("GET", `${jobPath(id)}/segments/${index}`, { signal, job: id });
      if (!response.body) throw new Error(`segment ${index} has no body`);
      await mkdir(dirname(path), { recursive: true });
      await pipeline(Readable.fromWeb(response.body as WebReadableStream<Uint8Array>), createWriteStream(path));
    },

    /** Posts log lines (and structured progress) and renews the lease; tells whether the job should stop. */
    async postProgress(id: string, lines: string[], stage?: string, progress?: ProgressRequest["progress"]): Promise<{ cancelled: boolean }> {
      const body: ProgressRequest = { lines };
      if (stage !== undefined) body.stage = stage;
      if (progress !== undefined) body.progress = progress;
      return CancelledResponseSchema.parse(await (await call("POST", `${jobPath(id)}/progress`, { json: body, job: id })).json());
    },

    /** A render job's plan; the answer is the split (one segment: render it whole) or a cancel. */
    async postPlan(id: string, plan: RenderPlan): Promise<{ segments: SegmentRange[]; cancelled: boolean }> {
      return PlanResponseSchema.parse(await (await call("POST", `${jobPath(id)}/plan`, { json: { plan }, job: id })).json());
    },

    /** Writes a file into the project (snapshot jobs, under snapshots/ only). */
    async uploadProjectFile(id: string, path: string, bytes: Uint8Array, contentType: string): Promise<{ size: number }> {
      const encoded = path.split("/").map(encodeURIComponent).join("/");
      const response = await fetch(`${base}${jobPath(id)}/files/${encoded}`, {
        method: "PUT",
        headers: { ...jobHeaders(id), "content-type": contentType, "content-length": String(bytes.byteLength) },
        body: bytes as Uint8Array<ArrayBuffer>,
      });
      if (!response.ok) throw await refusal(`PUT ${path}`, response);
      return ProjectFileWriteResponseSchema.parse(await response.json());
    },

    /** A preview job tells the Worker its port; false when the preview was stopped meanwhile. */
    async reportPreviewPort(id: string, port: number): Promise<{ cancelled: boolean }> {
      return CancelledResponseSchema.parse(await (await call("POST", `${jobPath(id)}/preview`, { json: { port }, job: id })).json());
    },

    /** Streams the output file up with its length and type. */
    async uploadOutput(id: string, file: string, contentType: string): Promise<{ size: number }> {
      const { size } = await stat(file);
      const response = await fetch(`${base}${jobPath(id)}/output`, {
        method: "PUT",
        headers: { ...jobHeaders(id), "content-type": contentType, "content-length": String(size) },
        body: Readable.toWeb(createReadStream(file)) as ReadableStream<Uint8Array>,
        duplex: "half",
      } as RequestInit);
      if (!response.ok) throw await refusal("PUT output", response);
      return OutputResponseSchema.parse(await response.json());
    },

    /** Uploads a live piece of a running render (job/upload-live-pieces.ts): its bytes and figures. */
    async uploadLivePiece(id: string, n: number, bytes: Uint8Array, figures: { seconds: number; initBytes: number; mediaEnd: number; count: number }): Promise<{ size: number }> {
      const query = new URLSearchParams({
        seconds: figures.seconds.toFixed(6), initBytes: String(figures.initBytes), mediaEnd: String(figures.mediaEnd), count: String(figures.count),
      });
      const response = await fetch(`${base}${jobPath(id)}/live/${n}?${query}`, {
        method: "PUT",
        headers: { ...jobHeaders(id), "content-type": "video/mp4", "content-length": String(bytes.byteLength) },
        body: bytes as Uint8Array<ArrayBuffer>,
      });
      if (!response.ok) throw await refusal(`PUT live piece ${n}`, response);
      return OutputResponseSchema.parse(await response.json());
    },

    /** Uploads the finished render's poster (a JPEG) beside its output. */
    async uploadPoster(id: string, file: string, contentType: string): Promise<{ size: number }> {
      const bytes = await readFile(file);
      const response = await fetch(`${base}${jobPath(id)}/poster`, {
        method: "PUT",
        headers: { ...jobHeaders(id), "content-type": contentType, "content-length": String(bytes.byteLength) },
        body: bytes as Uint8Array<ArrayBuffer>,
      });
      if (!response.ok) throw await refusal("PUT poster", response);
      return PosterResponseSchema.parse(await response.json());
    },

    /**
     * Gives the job back (the node is stopping): the Worker queues it again at once for another node. False when it
     * was no longer this process's to give. The attempt is kept: the job's last progress posts, still in flight while
     * its work unwinds, must keep naming it (without it they would be judged by the key alone, which the process
     * that claims the job next shares in a container farm).
     */
    async release(id: string, reason: string): Promise<boolean> {
      const body: ReleaseRequest = { reason };
      return ReleaseResponseSchema.parse(await (await call("POST", `${jobPath(id)}/release`, { json: body, job: id })).json()).released;
    },

    async complete(id: string, result: ({ ok: true; posterError?: string; carried?: CompleteRequest["carried"] } | { ok: false; error: string }) & { result?: unknown }): Promise<{ ok: boolean; error?: string | undefined }> {
      const body: CompleteRequest = result;
      try {
        return CompleteResponseSchema.parse(await (await call("POST", `${jobPath(id)}/complete`, { json: body, job: id })).json());
      } finally {
        attempts.delete(id);
      }
    },
  };
}
