import { describe, expect, it } from "vitest";
import { buildComposition, codesOf, lintFiles } from "../test-fixtures.ts";

const lintScript = (script: string) => lintFiles({ "index.html": buildComposition({ script }) });
const REGISTER = 'window.__timelines = window.__timelines || {}; window.__timelines["demo"] = tl;';

describe("timeline rules", () => {
  it("accepts bracket, dot and constant-key registration forms", () => {
    expect(lintScript(`const tl = gsap.timeline({ paused: true }); ${REGISTER}`).findings).toEqual([]);
    expect(lintScript("const tl = gsap.timeline({ paused: true }); window.__timelines = {}; window.__timelines.demo = tl;").findings).toEqual([]);
    expect(lintScript("const ID = 'demo'; const tl = gsap.timeline({paused:true}); window.__timelines = window.__timelines || {}; window.__timelines[ID] = tl;").findings).toEqual([]);
    expect(lintScript("window.__timelines = window.__timelines || {}; window.__timelines['demo'] = gsap.timeline({ paused: true, defaults: { ease: 'none' } });").findings).toEqual([]);
  });

  it("reports timeline_not_paused for a registered timeline that plays", () => {
    const result = lintScript(`const tl = gsap.timeline({ defaults: { duration: 1 } }); ${REGISTER}`);
    expect(codesOf(result)).toEqual(["timeline_not_paused"]);
    expect(result.findings[0]?.fixHint).toContain("paused: true");
    expect(codesOf(lintScript(`const tl = gsap.timeline(); ${REGISTER}`))).toEqual(["timeline_not_paused"]);
  });

  it("accepts tl.pause() after creation and unpaused child timelines", () => {
    expect(lintScript(`const tl = gsap.timeline(); tl.pause(); ${REGISTER}`).findings).toEqual([]);
    expect(lintScript(`const tl = gsap.timeline({ paused: true }); const child = gsap.timeline(); tl.add(child); ${REGISTER}`).findings).toEqual([]);
  });

  it("reports timeline_not_registered when nothing is registered under the root id", () => {
    const result = lintScript("const tl = gsap.timeline({ paused: true });");
    expect(codesOf(result)).toEqual(["timeline_not_registered"]);
    expect(result.findings[0]?.fixHint).toContain('window.__timelines["demo"] = tl;');
  });

  it("reports timeline_unknown_id (and not_registered) for a key with no matching composition", () => {
    const result = lintScript('const tl = gsap.timeline({ paused: true }); window.__timelines = {}; window.__timelines["dmeo"] = tl;');
    expect(codesOf(result)).toEqual(["timeline_not_registered", "timeline_unknown_id"]);
  });

  it("ignores registrations inside comments", () => {
    expect(codesOf(lintScript('const tl = gsap.timeline({ paused: true }); // window.__timelines["demo"] = tl;'))).toEqual(["timeline_not_registered"]);
  });

  it("warns with gsap_global_tween for a statement-level gsap.to", () => {
    expect(codesOf(lintScript(`const tl = gsap.timeline({ paused: true }); ${REGISTER}\n gsap.to(".title", { x: 100 });`))).toEqual(["gsap_global_tween"]);
    expect(lintScript(`const tl = gsap.timeline({ paused: true }); tl.add(gsap.to(".title", { x: 100 })); ${REGISTER}`).findings).toEqual([]);
  });
});
