// Runs a command and prints its wall time and the CPU seconds of its whole process tree, Chromium's detached
// process group included (bench/lib/tree-cpu-sampler.ts: /proc polled every 40 ms, each process's last reading kept,
// so another job on the machine does not count, as it does in /proc/stat), then those seconds by kind of process
// (Chromium's GPU process, renderers and browser, ffmpeg, node...).
//
//   node bench/tree-cpu.ts node bench/some-render.ts reference /tmp/out.mp4
import { spawn } from "node:child_process";
import { sampleTreeCpu } from "./lib/tree-cpu-sampler.ts";

const [command, ...args] = process.argv.slice(2);
if (!command) throw new Error("usage: node bench/tree-cpu.ts <command> [args...]");

const started = performance.now();
const child = spawn(command, args, { stdio: ["ignore", "inherit", "inherit"] });
const tree = sampleTreeCpu([child.pid!]);
child.on("exit", (code) => {
  const cpu = tree.stop();
  console.log(`wall ${((performance.now() - started) / 1000).toFixed(2)} s, tree cpu ${cpu.toFixed(2)} s, exit ${code}`);
  console.log(`by process: ${tree.byKind().filter(([, s]) => s >= 0.01).map(([kind, s]) => `${kind} ${s.toFixed(2)} s`).join(", ")}`);
  process.exitCode = code ?? 1;
});
