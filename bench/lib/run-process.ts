// Runs a process to completion for the benchmark scripts: resolves with its combined stdout+stderr, rejects with
// the last `tailLines` lines of it when it exits non-zero (or cannot start). `onStart` is told its pid once it runs (to
// follow its process tree, bench/lib/tree-cpu-sampler.ts).
import { spawn } from "node:child_process";

export function runProcess(file: string, args: string[], env: NodeJS.ProcessEnv = process.env, tailLines = 20, onStart?: (pid: number) => void): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(file, args, { env, stdio: ["ignore", "pipe", "pipe"] });
    if (child.pid !== undefined) onStart?.(child.pid);
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code, signal) => {
      if (code === 0) resolvePromise(output);
      else reject(new Error(`${file} ${args.join(" ")} exited with ${code ?? signal}\n${output.trim().split("\n").slice(-tailLines).join("\n")}`));
    });
  });
}
