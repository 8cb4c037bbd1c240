// Runs a process to completion for the benchmark scripts: resolves with its combined stdout+stderr, rejects with
// the last `tailLines` lines of it when it exits non-zero (or cannot start).
import { spawn } from "node:child_process";

export function runProcess(file: string, args: string[], env: NodeJS.ProcessEnv = process.env, tailLines = 20): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(file, args, { env, stdio: ["ignore", "pipe", "pipe"] });
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
