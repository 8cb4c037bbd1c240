import { describe, expect, it } from "vitest";
import { BUNDLED_FAMILIES, bundledFamilyFor, MAPPED_FAMILY_NAMES } from "./font-table.ts";
import { declaredFamilies, googleFontsFamilies, googleFontsUrls, htmlStyleText, splitFamilyList, usedFamilies } from "./read-font-usage.ts";
import { prependGenericPrimary, rewriteCssFonts, rewriteHtmlFonts } from "./rewrite-page-fonts.ts";

describe("font table", () => {
  it("maps bundled families and aliases (any case, quoted) to their @fontsource package", () => {
    expect(bundledFamilyFor("'Inter'")).toMatchObject({ name: "Inter", packageName: "@fontsource/inter" });
    expect(bundledFamilyFor("JETBRAINS MONO")).toMatchObject({ name: "JetBrains Mono", packageName: "@fontsource/jetbrains-mono" });
    expect(bundledFamilyFor("Helvetica Neue")?.name).toBe("Inter");
    expect(bundledFamilyFor("Times New Roman")?.name).toBe("EB Garamond");
    expect(bundledFamilyFor("Bebas Neue")?.name).toBe("League Gothic");
    expect(bundledFamilyFor("Zorblax")).toBeNull();
    expect(BUNDLED_FAMILIES).toHaveLength(17);
    expect(MAPPED_FAMILY_NAMES).toHaveLength(67);
  });
});

describe("reading font usage", () => {
  it("splits family lists, keeping commas inside quotes", () => {
    expect(splitFamilyList(`"Foo, Bar", 'Open Sans', Arial , sans-serif !important`)).toEqual(["Foo, Bar", "Open Sans", "Arial", "sans-serif"]);
  });

  it("lists used families (not generics, not @font-face names, not custom properties) and declared ones", () => {
    const css = `@font-face { font-family: "Brand"; src: url(a.woff2); } h1 { font-family: Brand, "Open Sans", serif; } p { font-family: var(--f), Lato; } :root { --brand-font-family: Nope; }`;
    expect(usedFamilies(css)).toEqual(["Brand", "Open Sans", "Lato"]);
    expect([...declaredFamilies(css)]).toEqual(["brand"]);
  });

  it("reads Google Fonts families from link and @import URLs", () => {
    expect(googleFontsFamilies("https://fonts.googleapis.com/css2?family=Playfair+Display:wght@700&family=Inter&display=swap")).toEqual(["Playfair Display", "Inter"]);
    expect(googleFontsFamilies("https://fonts.googleapis.com/css?family=Roboto|Lato:400,700")).toEqual(["Roboto", "Lato"]);
    expect(googleFontsFamilies("https://example.com/css2?family=Inter")).toEqual([]);
    const html = `<link href="https://fonts.googleapis.com/css2?family=Inter&amp;display=swap" rel="stylesheet"><style>@import url('https://fonts.googleapis.com/css2?family=Lato');</style>`;
    expect(googleFontsUrls(html)).toEqual(["https://fonts.googleapis.com/css2?family=Inter&display=swap", "https://fonts.googleapis.com/css2?family=Lato"]);
  });

  it("reads the CSS of a page: style blocks and decoded style attributes", () => {
    expect(usedFamilies(htmlStyleText(`<style>h1{font-family:A}</style><p style="font-family: &quot;B C&quot;, serif">`))).toEqual(["A", "B C"]);
  });
});

describe("rewriting page fonts", () => {
  it("puts Inter in front of a generic first family, as HyperFrames does, and leaves named ones and @font-face alone", () => {
    expect(prependGenericPrimary("h1 { font-family: sans-serif; } h2 { font-family: monospace, Menlo; } h3 { font-family: Lato, serif; }")).toBe(
      "h1 { font-family: Inter, sans-serif; } h2 { font-family: Inter, monospace, Menlo; } h3 { font-family: Lato, serif; }",
    );
    expect(prependGenericPrimary(`@font-face { font-family: serif-ish; } p { font-family: serif-ish; }`)).toBe(`@font-face { font-family: serif-ish; } p { font-family: serif-ish; }`);
  });

  it("points Google Fonts links and imports at a local copy, or drops them (and preconnects) when there is none", () => {
    const html = `<head><link rel="preconnect" href="https://fonts.gstatic.com" crossorigin><link href="https://fonts.googleapis.com/css2?family=Lato&amp;display=swap" rel="stylesheet"><link rel="stylesheet" href="css/a.css"></head><p style="font-family:serif">`;
    expect(rewriteHtmlFonts(html, () => null)).toBe(`<head><link rel="stylesheet" href="css/a.css"></head><p style="font-family:Inter, serif">`);
    expect(rewriteHtmlFonts(html, (url) => (url.includes("Lato") ? "/__studio/fonts/google/x.css" : null))).toContain(`<link rel="stylesheet" href="/__studio/fonts/google/x.css">`);
    expect(rewriteCssFonts(`@import url("https://fonts.googleapis.com/css2?family=Lato");\nbody{}`, () => null)).not.toContain("@import");
    expect(rewriteCssFonts(`@import url("theme.css");`, () => null)).toBe(`@import url("theme.css");`);
  });
});
