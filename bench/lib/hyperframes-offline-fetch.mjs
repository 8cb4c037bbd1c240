// Preloaded into the HyperFrames CLI by bench/parity.ts (node --import). HyperFrames' compiler downloads
// `<script src="https://cdn...">` files with Node's fetch and inlines them; this machine has no network, so without
// help a composition that loads GSAP from the CDN (as HyperFrames' templates do) renders with no GSAP at all.
// This answers GSAP CDN URLs from the same gsap npm package our render node serves for them (PARITY_GSAP_DIST,
// version PARITY_GSAP_VERSION), passes loopback through (the CLI talks to its own file server), and fails every
// other request at once, as an offline machine would (Google Fonts included), so HyperFrames never reaches the network.
// HyperShader (@hyperframes/shader-transitions) URLs come from PARITY_SHADER_DIST, the release hyperframes-reference.ts installs.
import { readFile } from "node:fs/promises";
import { join } from "node:path";

const dist = process.env.PARITY_GSAP_DIST;
const version = process.env.PARITY_GSAP_VERSION;
const realFetch = globalThis.fetch;
const shaderDist = process.env.PARITY_SHADER_DIST;
const SHADER = /\/@hyperframes\/shader-transitions(?:@[0-9A-Za-z.+-]+)?\/dist\/(index\.global\.js)$/;
const GSAP = /\/gsap@([0-9][0-9A-Za-z.+-]*)\/dist\/([A-Za-z0-9_-]+(?:\.min)?\.js)$/;

globalThis.fetch = async (input, init) => {
  const href = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
  const url = new URL(href);
  if (["127.0.0.1", "localhost", "[::1]"].includes(url.hostname)) return realFetch(input, init);
  const gsap = GSAP.exec(url.pathname);
  if (dist && gsap && gsap[1] === version) {
    const body = await readFile(join(dist, gsap[2]));
    return new Response(body, { status: 200, headers: { "content-type": "text/javascript" } });
  }
  const shader = SHADER.exec(url.pathname);
  if (shaderDist && shader) {
    const body = await readFile(join(shaderDist, shader[1]));
    return new Response(body, { status: 200, headers: { "content-type": "text/javascript" } });
  }
  throw new TypeError(`fetch failed: no network in the parity harness (${url.host})`);
};
