// Reads render-node/Dockerfile the way the image build would place files, for the image test, and the build
// context as .dockerignore leaves it (Docker's own matching rules: @balena/dockerignore). Pure.
import dockerignore from "@balena/dockerignore";

// The Dockerfile reader lives with the scripts: the local container host starts nodes from the image's CMD and ENV.
export { parseDockerfile, type DockerCopy, type DockerStage } from "../../scripts/lib/dockerfile.ts";

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
