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

  it("points CDN GSAP at the local copy of the release a render serves and leaves other scripts alone", () => {
    expect(rewriteGsapScripts('<script src="https://cdn.jsdelivr.net/npm/gsap@3.14.2/dist/gsap.min.js"></script>', "/g/")).toBe('<script src="/g/3.14.2/gsap.min.js"></script>');
    expect(rewriteGsapScripts("<script defer src='https://cdnjs.cloudflare.com/ajax/libs/gsap/3.12.5/gsap.min.js'></script>", "/g/")).toBe("<script defer src='/g/3.12.5/gsap.min.js'></script>");
    expect(rewriteGsapScripts('<script src="app.js"></script>', "/g/")).toBe('<script src="app.js"></script>');
  });

  it("hands the player the substitution when the pinned release is not shipped, in the render's words", () => {
    const url = "https://unpkg.com/gsap@3.13.4/dist/gsap.min.js";
    const html = buildPlayPage(`<head><script src="${url}"></script></head><body></body>`, OPTIONS);
    expect(html).toContain('<script src="/gsap/3.13.0/gsap.min.js"></script>');
    expect(html).toContain(`<script src="/pl.js" data-notice="GSAP 3.13.4 requested (${url}); served GSAP 3.13.0, the nearest release render nodes ship"></script>`);
    expect(buildPlayPage('<script src="https://unpkg.com/gsap@3.13.0/dist/gsap.min.js"></script>', OPTIONS)).not.toContain("data-notice");
  });

  it("points HyperFrames' shader-transition library at our HyperShader", () => {
    const tag = '<script src="https://cdn.jsdelivr.net/npm/@hyperframes/shader-transitions/dist/index.global.js"></script>';
    expect(buildPlayPage(tag, OPTIONS)).toContain('<script src="/hs.js"></script>');
    expect(rewriteGsapScripts(tag, "/g/")).toBe(tag);
  });
});
