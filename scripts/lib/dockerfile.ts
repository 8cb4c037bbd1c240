// Reads a Dockerfile's stages: WORKDIR, COPY, RUN, ENV and CMD, for the image test (test/node/image-files.test.ts)
// and the local container host (local-containers.ts), which starts a node as the image's CMD and ENV say. Pure.

export interface DockerCopy {
  /** The stage it copies from (`--from=deps`), or null for the build context. */
  from: string | null;
  sources: string[];
  /** Absolute path in the image. */
  dest: string;
}

export interface DockerStage {
  name: string | null;
  base: string;
  workdir: string;
  copies: DockerCopy[];
  runs: string[];
  env: Record<string, string>;
  cmd: string[] | null;
}

const joinPath = (dir: string, path: string) => (path.startsWith("/") ? path : `${dir.replace(/\/$/, "")}/${path.replace(/^\.\//, "")}`);

/** Every stage of a Dockerfile with its WORKDIR, COPY, RUN, ENV and CMD (continuation lines joined). */
export function parseDockerfile(text: string): DockerStage[] {
  const lines = text.replace(/\\\n/g, " ").split("\n").map((l) => l.trim()).filter((l) => l && !l.startsWith("#"));
  const stages: DockerStage[] = [];
  for (const line of lines) {
    const [word = "", ...rest] = line.split(/\s+/);
    const args = rest.join(" ");
    const stage = stages.at(-1);
    switch (word.toUpperCase()) {
      case "FROM": {
        const match = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(args);
        stages.push({ name: match?.[2] ?? null, base: match?.[1] ?? args, workdir: "/", copies: [], runs: [], env: {}, cmd: null });
        break;
      }
      case "WORKDIR":
        if (stage) stage.workdir = joinPath(stage.workdir, args);
        break;
      case "COPY": {
        if (!stage) break;
        const parts = args.split(/\s+/);
        const from = parts.find((p) => p.startsWith("--from="))?.slice("--from=".length) ?? null;
        const paths = parts.filter((p) => !p.startsWith("--"));
        const dest = paths.pop() ?? "";
        stage.copies.push({ from, sources: paths, dest: joinPath(stage.workdir, dest) });
        break;
      }
      case "RUN":
        stage?.runs.push(args);
        break;
      case "ENV":
        if (stage) for (const m of args.matchAll(/(\w+)=("[^"]*"|\S+)/g)) stage.env[m[1]!] = m[2]!.replace(/^"|"$/g, "");
        break;
      case "CMD":
        if (stage) stage.cmd = JSON.parse(args) as string[];
        break;
    }
  }
  return stages;
}
