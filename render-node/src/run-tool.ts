// The only place that starts ffmpeg or ffprobe. Every call takes the render's AbortSignal, which kills the process.
import { execa } from "execa";

export interface ToolRun {
  /** Writable stdin when `stdin: "pipe"` was asked for. */
  stdin: NodeJS.WritableStream | null;
  /** Resolves with stdout; rejects with an Error whose message ends with the tool's last stderr lines, verbatim. */
  done: Promise<string>;
  pid: number | undefined;
}

const STDERR_TAIL_LINES = 12;

/** Starts `file args`, killed with SIGKILL when `signal` aborts. */
export function runTool(file: string, args: string[], signal: AbortSignal, options: { stdin?: "pipe" | "ignore" } = {}): ToolRun {
  const subprocess = execa(file, args, {
    cancelSignal: signal,
    killSignal: "SIGKILL",
    stdin: options.stdin ?? "ignore",
    stdout: "pipe",
    stderr: "pipe",
    reject: true,
    stripFinalNewline: true,
    maxBuffer: 64 * 1024 * 1024,
  });
  const done = subprocess.then(
    (result) => String(result.stdout ?? ""),
    (error: unknown) => {
      if (signal.aborted) throw signal.reason instanceof Error ? signal.reason : new Error("render cancelled");
      const stderr = typeof error === "object" && error !== null && "stderr" in error ? String(error.stderr ?? "") : "";
      const tail = stderr.trim().split("\n").slice(-STDERR_TAIL_LINES).join("\n");
      const short = typeof error === "object" && error !== null && "shortMessage" in error ? String(error.shortMessage) : String(error);
      throw new Error(`${short.split("\n")[0]}${tail ? `\n${tail}` : ""}`);
    },
  );
  // Keep an unawaited rejection from crashing the process; callers await `done`.
  done.catch(() => {});
  return { stdin: subprocess.stdin, done, pid: subprocess.pid };
}
