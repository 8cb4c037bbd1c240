// npm drops optional platform packages that its registry does not serve (here: workerd's darwin and windows
// builds of recent versions), and `npm ci` then refuses the lockfile as out of sync. Listing them with their
// os/cpu restrictions lets `npm ci` skip them by platform, as it does on any registry. Run after `npm install`.
import { readFileSync, writeFileSync } from "node:fs";

const PLATFORMS = {
  "darwin-64": { os: ["darwin"], cpu: ["x64"] },
  "darwin-arm64": { os: ["darwin"], cpu: ["arm64"] },
  "linux-64": { os: ["linux"], cpu: ["x64"] },
  "linux-arm64": { os: ["linux"], cpu: ["arm64"] },
  "windows-64": { os: ["win32"], cpu: ["x64"] },
};

const lock = JSON.parse(readFileSync("package-lock.json", "utf8"));
let added = 0;
for (const [path, entry] of Object.entries(lock.packages)) {
  if (!path.endsWith("node_modules/workerd")) continue;
  const base = path.slice(0, -"workerd".length);
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const platform = PLATFORMS[name.replace("@cloudflare/workerd-", "")];
    const key = `${base}${name}`;
    if (!platform || lock.packages[key]) continue;
    lock.packages[key] = { version, ...platform, license: "Apache-2.0", optional: true, engines: { node: ">=16" } };
    added++;
  }
}
const sorted = Object.fromEntries(Object.entries(lock.packages).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a < b ? -1 : 1)));
lock.packages = sorted;
writeFileSync("package-lock.json", JSON.stringify(lock, null, 2) + "\n");
console.log(`complete-lockfile: added ${added} platform entries`);
