// Reads render-node/Dockerfile the way the image build would place files, for the image test, and the build
// context as .dockerignore leaves it (Docker's own matching rules: @balena/dockerignore). Pure.
import dockerignore from "@balena/dockerignore";

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

/** Module specifiers a TypeScript/JavaScript file imports (static, dynamic and re-exports). */
export function importSpecifiers(source: string): string[] {
  const found = new Set<string>();
  for (const m of source.matchAll(/(?:^|[;\s])(?:import|export)\s[^'"]*?\sfrom\s*["']([^"']+)["']/g)) found.add(m[1]!);
  for (const m of source.matchAll(/(?:^|[;\s])import\s*["']([^"']+)["']/g)) found.add(m[1]!);
  for (const m of source.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g)) found.add(m[1]!);
  return [...found];
}

/** The npm package a bare specifier names: "@scope/name" or "name". */
export function packageOf(specifier: string): string {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]!;
}

/** The packages among `names` that a file names in a quoted string ("gsap-3.14.2/package.json", "@scope/pkg"):
 * what it may import, require or resolve, statically or not. */
export function quotedPackages(source: string, names: Iterable<string>): string[] {
  const known = new Set(names);
  const found = new Set<string>();
  for (const m of source.matchAll(/["'`]([@\w][^"'`\s]*)["'`]/g)) if (known.has(packageOf(m[1]!))) found.add(packageOf(m[1]!));
  return [...found];
}

/** Which of `files` (paths relative to the context's root, "/"-separated) the build context keeps, per `.dockerignore`. */
export function inBuildContext(dockerignoreText: string, files: string[]): string[] {
  const rules = dockerignore({ ignorecase: false }).add(dockerignoreText.split("\n"));
  return rules.filter(files);
}

/** True when `file` is `source` or inside it (a COPY line's source: a file or a directory). */
export function isUnder(file: string, source: string): boolean {
  const dir = source.replace(/\/+$/, "");
  return file === dir || file.startsWith(`${dir}/`);
}
