// Preloaded into the HyperFrames CLI by bench/parity.ts (node --import). HyperFrames' compiler downloads
// `<script src="https://cdn...">` files with Node's fetch and inlines them; this machine has no network, so without
// help a composition that loads GSAP from the CDN (as HyperFrames' templates do) renders with no GSAP at all.
// This answers a GSAP CDN URL pinned to a release our render node ships from that release's npm package (the
// same files the node serves: PARITY_GSAP_DISTS, {"3.12.5": "<dir>/dist", ...}, built from
// core/composition/gsap-versions.ts), so both renderers run the version the composition asks for. A version the node
// does not ship fails like the network would, rather than quietly running another release. Loopback passes through
// (the CLI talks to its own file server); every other request fails at once, as on an offline machine (Google Fonts
// included), so HyperFrames never reaches the network.
// HyperShader (@hyperframes/shader-transitions) URLs come from PARITY_SHADER_DIST, the release hyperframes-reference.ts installs.
import { readFile } from "node:fs/promises";
import { join } from "node:path";

const dists = JSON.parse(process.env.PARITY_GSAP_DISTS ?? "{}");
const realFetch = globalThis.fetch;
const shaderDist = process.env.PARITY_SHADER_DIST;
const SHADER = /\/@hyperframes\/shader-transitions(?:@[0-9A-Za-z.+-]+)?\/dist\/(index\.global\.js)$/;
const GSAP = /\/gsap@([0-9][0-9A-Za-z.+-]*)\/dist\/([A-Za-z0-9_-]+(?:\.min)?\.js)$/;

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
  const shipped = gsap ? ` (GSAP ${gsap[1]} is not shipped: ${Object.keys(dists).join(", ")})` : "";
  throw new TypeError(`fetch failed: no network in the parity harness (${url.host})${shipped}`);
};
