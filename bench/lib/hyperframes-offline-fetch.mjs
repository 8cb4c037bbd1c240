// Preloaded into the HyperFrames CLI by bench/parity.ts (node --import). HyperFrames' compiler downloads
// `<script src="https://cdn...">` files with Node's fetch and inlines them; this machine has no network, so without
// help a composition that loads GSAP from the CDN (as HyperFrames' templates do) renders with no GSAP at all.
// This answers a GSAP CDN URL pinned to a release our render node ships from that release's npm package (the
// same files the node serves: PARITY_GSAP_DISTS, {"3.12.5": "<dir>/dist", ...}, built from
// core/composition/gsap-versions.ts), so both renderers run the version the composition asks for. A version the node
// does not ship fails like the network would, rather than quietly running another release. Loopback passes through
// (the CLI talks to its own file server); every other request fails at once, as on an offline machine, so
// HyperFrames never reaches the network.
// HyperShader (@hyperframes/shader-transitions) URLs come from PARITY_SHADER_DIST, the release hyperframes-reference.ts installs.
// Google Fonts is answered for the families the studio bundles, from the same @fontsource packages our render node
// serves (PARITY_FONTSOURCE_DIR): HyperFrames embeds only some weights of its mapped families (Inter 400/700/900)
// and takes the others from Google (its "bundled_supplement"); offline it drew Inter 600 as 700 (a wider title
// than HyperFrames online, and than ours). A css2 request gets the faces it names (ital,wght pairs, or wght, or
// 400), each weight's @font-face blocks from the package's CSS with their url() pointed at fonts.gstatic.com/parity/,
// which is then answered from the package's files. Any other family fails as offline.
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";

const dists = JSON.parse(process.env.PARITY_GSAP_DISTS ?? "{}");
const realFetch = globalThis.fetch;
const shaderDist = process.env.PARITY_SHADER_DIST;
const SHADER = /\/@hyperframes\/shader-transitions(?:@[0-9A-Za-z.+-]+)?\/dist\/(index\.global\.js)$/;
const GSAP = /\/gsap@([0-9][0-9A-Za-z.+-]*)\/dist\/([A-Za-z0-9_-]+(?:\.min)?\.js)$/;

const fontsource = process.env.PARITY_FONTSOURCE_DIR;
const FONT_FILE = /^\/parity\/([a-z0-9-]+)\/files\/([a-z0-9-]+\.woff2?)$/;

/** The faces a css2 `family` value asks for: "Inter:ital,wght@0,400;1,700", "Inter:wght@400;600", "Inter". */
function requestedFaces(value) {
  const [name = "", axes = ""] = value.split(":");
  const [tags = "", tuples = ""] = axes.split("@");
  const names = tags.split(",");
  const faces = tuples ? tuples.split(";").map((tuple) => {
    const parts = tuple.split(",");
    const at = (tag) => (names.indexOf(tag) === -1 ? undefined : parts[names.indexOf(tag)]);
    return { italic: at("ital") === "1", weight: at("wght") ?? "400" };
  }) : [{ italic: false, weight: "400" }];
  return { name: name.trim(), faces };
}

async function googleCss(url) {
  const blocks = [];
  for (const value of url.searchParams.getAll("family")) {
    const { name, faces } = requestedFaces(value);
    const slug = name.toLowerCase().replace(/\s+/g, "-");
    const dir = join(fontsource, slug);
    if (!/^[a-z0-9-]+$/.test(slug) || !existsSync(dir)) return null;
    for (const face of faces) {
      const file = join(dir, `${face.weight}${face.italic ? "-italic" : ""}.css`);
      if (!existsSync(file)) continue;
      const css = await readFile(file, "utf8");
      blocks.push(css.replace(/url\(\.\/files\//g, `url(https://fonts.gstatic.com/parity/${slug}/files/`).replace(/,\s*url\([^)]*\.woff\) format\('woff'\)/g, ""));
    }
  }
  return blocks.length > 0 ? blocks.join("\n") : null;
}

globalThis.fetch = async (input, init) => {
  const href = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
  const url = new URL(href);
  if (["127.0.0.1", "localhost", "[::1]"].includes(url.hostname)) return realFetch(input, init);
  const gsap = GSAP.exec(url.pathname);
  if (gsap && Object.hasOwn(dists, gsap[1])) {
    const body = await readFile(join(dists[gsap[1]], gsap[2]));
    return new Response(body, { status: 200, headers: { "content-type": "text/javascript" } });
  }
  const shader = SHADER.exec(url.pathname);
  if (shaderDist && shader) {
    const body = await readFile(join(shaderDist, shader[1]));
    return new Response(body, { status: 200, headers: { "content-type": "text/javascript" } });
  }
  if (fontsource && url.hostname === "fonts.googleapis.com" && url.pathname === "/css2") {
    const css = await googleCss(url);
    if (css) return new Response(css, { status: 200, headers: { "content-type": "text/css" } });
  }
  const font = FONT_FILE.exec(url.pathname);
  if (fontsource && url.hostname === "fonts.gstatic.com" && font) {
    const body = await readFile(join(fontsource, font[1], "files", font[2]));
    return new Response(body, { status: 200, headers: { "content-type": "font/woff2" } });
  }
  const shipped = gsap ? ` (GSAP ${gsap[1]} is not shipped: ${Object.keys(dists).join(", ")})` : "";
  throw new TypeError(`fetch failed: no network in the parity harness (${url.host})${shipped}`);
};
