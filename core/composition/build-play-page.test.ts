import { describe, expect, it } from "vitest";
import { buildPlayPage, rewriteGsapScripts } from "./build-play-page.ts";

const OPTIONS = { runtimeSrc: "/rt.js", playerSrc: "/pl.js", gsapBase: "/gsap/", hyperShaderSrc: "/hs.js" };

describe("play page", () => {
  it("puts <base> and the runtime first in <head>, the player last in <body>", () => {
    const html = buildPlayPage('<html><head><title>x</title></head><body><div data-composition-id="a"></div></body></html>', {
      ...OPTIONS,
      baseHref: "/api/projects/a/files/",
      reloadUrl: "/events",
    });
    expect(html).toBe(
      '<html><head><base href="/api/projects/a/files/"><script src="/rt.js" data-mode="play" data-gsap-base="/gsap/"></script><title>x</title></head>' +
        '<body><div data-composition-id="a"></div><script src="/pl.js" data-reload-url="/events"></script></body></html>',
    );
  });

  it("works without <head> or <body>", () => {
    expect(buildPlayPage("<div></div>", OPTIONS)).toBe('<script src="/rt.js" data-mode="play" data-gsap-base="/gsap/"></script><div></div><script src="/pl.js"></script>');
  });

  it("points CDN GSAP at the local copy and leaves other scripts alone", () => {
    expect(rewriteGsapScripts('<script src="https://cdn.jsdelivr.net/npm/gsap@3.14.2/dist/gsap.min.js"></script>', "/g/")).toBe('<script src="/g/gsap.min.js"></script>');
    expect(rewriteGsapScripts("<script defer src='https://cdnjs.cloudflare.com/ajax/libs/gsap/3.12.5/gsap.min.js'></script>", "/g/")).toBe("<script defer src='/g/gsap.min.js'></script>");
    expect(rewriteGsapScripts('<script src="app.js"></script>', "/g/")).toBe('<script src="app.js"></script>');
  });

  it("points HyperFrames' shader-transition library at our HyperShader", () => {
    const tag = '<script src="https://cdn.jsdelivr.net/npm/@hyperframes/shader-transitions/dist/index.global.js"></script>';
    expect(buildPlayPage(tag, OPTIONS)).toContain('<script src="/hs.js"></script>');
    expect(rewriteGsapScripts(tag, "/g/")).toBe(tag);
  });
});
