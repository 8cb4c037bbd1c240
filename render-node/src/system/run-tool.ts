// The only place that starts ffmpeg or ffprobe. Every call takes the render's AbortSignal, which kills the process;
// every process dies with the node (child-lifetime.ts) and gets only child-env.ts's environment, never the node's
// keys; a step given a bound is killed when it overruns it.
import { basename } from "node:path";
import { execa } from "execa";
import { childEnv } from "./child-env.ts";
import { dieWithNode } from "./child-lifetime.ts";
import { StageTimeout, seconds } from "../bounds/deadline.ts";
import { settled } from "../../../core/settled.ts";

export interface ToolRun {
  /** Writable stdin when `stdin: "pipe"` was asked for. */
  stdin: NodeJS.WritableStream | null;
  /** Resolves with stdout; rejects with an Error whose message ends with the tool's last stderr lines, verbatim. */
  done: Promise<string>;
  pid: number | undefined;
}

export interface ToolOptions {
  stdin?: "pipe" | "ignore";
  /** Kill the tool after `ms` and fail with "<stage> did not finish in N s" (a StageTimeout). */
  bound?: { ms: number; stage: string } | undefined;
}

const STDERR_TAIL_LINES = 12;

function field(error: unknown, name: string): unknown {
  return typeof error === "object" && error !== null && name in error ? (error as Record<string, unknown>)[name] : undefined;
}

/** Starts `file args`, killed with SIGKILL when `signal` aborts. */
export function runTool(file: string, args: string[], signal: AbortSignal, options: ToolOptions = {}): ToolRun {
  const command = dieWithNode(file, args);
  const subprocess = execa(command.file, command.args, {
    cancelSignal: signal,
    killSignal: "SIGKILL",
    env: childEnv(),
    extendEnv: false,
    stdin: options.stdin ?? "ignore",
    stdout: "pipe",
    stderr: "pipe",
    reject: true,
    stripFinalNewline: true,
    maxBuffer: 64 * 1024 * 1024,
    ...(options.bound ? { timeout: options.bound.ms } : {}),
  });
  const done = subprocess.then(
    (result) => String(result.stdout ?? ""),
    (error: unknown) => {
      if (signal.aborted) throw signal.reason instanceof Error ? signal.reason : new Error("render cancelled");
      if (options.bound && field(error, "timedOut") === true) {
        throw new StageTimeout(`${options.bound.stage} did not finish in ${seconds(options.bound.ms)}`);
      }
      const stderr = String(field(error, "stderr") ?? "");
      const tail = stderr.trim().split("\n").slice(-STDERR_TAIL_LINES).join("\n");
      // Name the tool, not the setpriv wrapper or the node's temp paths.
      const code = field(error, "exitCode");
      const killedBy = field(error, "signal");
      const short = typeof code === "number"
        ? `${basename(file)} exited with code ${code}`
        : killedBy
          ? `${basename(file)} was killed by ${String(killedBy)}`
          : String(field(error, "shortMessage") ?? error).split("\n")[0];
      throw new Error(`${short}${tail ? `\n${tail}` : ""}`);
    },
  );
  // Keep an unawaited rejection from crashing the process; callers await `done` and handle its error.
  void settled(done);
  return { stdin: subprocess.stdin, done, pid: subprocess.pid };
}
