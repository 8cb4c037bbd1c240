// The dashboard's pure pieces, tested without a browser: safe Markdown, render progress, findings, API readers.
import { describe, expect, it } from "vitest";
import { findingView, readVerdict, SHOWN_FINDING_FIELDS, type ShownFinding } from "../../dashboard/src/lib/findings.ts";
import { CheckFindingSchema } from "../../core/protocol/finding-schema.ts";
import { checkFinding } from "../../core/browser/check-findings.ts";
import { lintFinding } from "../../worker/checks/shapes.ts";
import { readIdea, readIdeaDetail, readIdeaPage, readSimilar, type IdeaPageAnswer } from "../../dashboard/src/lib/ideas.ts";
import { plural } from "../../dashboard/src/lib/format.ts";
import { safeHref } from "../../dashboard/src/lib/safe-href.ts";
import { findingRange, timeAtCursor } from "../../dashboard/src/lib/finding-position.ts";
import { applyAnnouncement, applyRenderEvent, EMPTY_RENDER, isRunning, percentOf } from "../../dashboard/src/lib/render-events.ts";
import { latestRenderOf, pickThumbnail, posterTime } from "../../dashboard/src/lib/thumbnail.ts";
import type { BatchState, RenderState as RenderContractState } from "../../core/protocol/render-state.ts";
import type { FileEntry, RenderFile } from "../../dashboard/src/lib/types.ts";
import { DEFAULT_OPTIONS, requestBody } from "../../dashboard/src/lib/render-request.ts";
import { batchBody, rowsFromJson, rowsFromTable } from "../../dashboard/src/lib/batch-rows.ts";
import { laterBatch } from "../../dashboard/src/lib/batch-view.ts";

// An idea, an enrichment and a comment as the Worker answers them (worker/ideas/shapes.ts).
const ideaRecord = (id: number, title: string, extra: Partial<IdeaPageAnswer["ideas"][number]> = {}): IdeaPageAnswer["ideas"][number] => ({
  id, title, body: "B", source: null, name: "Ada", isBot: false, group: null, status: "open", votes: 2, voted: true, enrichments: 1, comments: 4, createdAt: "2026-01-01T00:00:00.000Z", ...extra,
});

describe("links in Markdown", () => {
  // The rendering itself (marked + DOMPurify, tables, raw HTML as text) is played in Chromium in dashboard-ideas.
  it("accepts only http(s), mailto and relative targets", () => {
    expect(safeHref("https://example.com/spec_(v2)")).toBe("https://example.com/spec_(v2)");
    expect(safeHref("mailto:a@example.com")).toBe("mailto:a@example.com");
    expect(safeHref("/research?slug=x")).toBe("/research?slug=x");
    expect(safeHref("javascript:alert(1)")).toBeNull();
    expect(safeHref("java\tscript:alert(1)")).toBeNull();
    expect(safeHref(" JAVASCRIPT:alert(1)")).toBeNull();
    expect(safeHref("data:text/html,<b>x</b>")).toBeNull();
  });
});

/** A render state as the contract shapes it (core/protocol/render-state.ts), with `over` changed. */
function renderState(over: Partial<RenderContractState> = {}): RenderContractState {
  return {
    id: "r1", slug: "a", status: "queued", startedAt: 1, doneAt: null, filename: "a.mp4", downloadUrl: null, posterUrl: null, posterError: null, lastLine: "",
    eventsUrl: "/api/projects/a/render/events", format: "mp4", quality: "standard", fps: null, resolution: null,
    composition: "index.html", progress: null, error: null, size: null, segments: null, ...over,
  };
}

const capturing = (frame: number, total: number, etaSeconds: number) => ({ frame, total, percent: Math.round((frame / total) * 1000) / 10, fps: 10, stage: "capturing" as const, etaSeconds });

describe("render progress", () => {
  it("takes progress only from the structured field, never from a log line's text", () => {
    const line = "frame 120/180 (67%), 14.2 fps, ETA 4 s";
    const started = applyRenderEvent(EMPTY_RENDER, "start", renderState());
    const view = applyRenderEvent(started, "line", { line, status: "rendering", progress: null });
    expect(view.progress).toBeNull();
    const progress = { frame: 120, total: 180, percent: 66.7, fps: 14.2, stage: "capturing" as const, etaSeconds: 4 };
    const next = applyRenderEvent(view, "line", { line, status: "rendering", progress });
    expect(next.progress).toEqual(progress);
  });

  it("follows snapshot, start, line and end to 100%", () => {
    let view = applyRenderEvent(EMPTY_RENDER, "snapshot", { status: "none", recent: [] });
    expect(isRunning(view)).toBe(false);
    view = applyRenderEvent(view, "start", renderState());
    expect(isRunning(view)).toBe(true);
    view = applyRenderEvent(view, "line", { line: "frame 30/60 (50%), 10.0 fps, ETA 3 s", status: "rendering", progress: capturing(30, 60, 3) });
    expect(percentOf(view)).toBe(50);
    expect(view.progress?.etaSeconds).toBe(3);
    view = applyRenderEvent(view, "end", renderState({ status: "done", downloadUrl: "/renders/a.mp4", doneAt: 2, size: 10 }));
    expect(isRunning(view)).toBe(false);
    expect(percentOf(view)).toBe(100);
    expect(view.lines).toHaveLength(1);
  });

  it("restores the log and progress from a mid-render snapshot", () => {
    const view = applyRenderEvent(EMPTY_RENDER, "snapshot", {
      ...renderState({ status: "rendering", progress: capturing(10, 40, 6) }),
      lines: ["start", "frame 10/40 (25%), 5.0 fps, ETA 6 s"],
    });
    expect(view.lines).toHaveLength(2);
    expect(percentOf(view)).toBe(25);
  });

  it("shows an event it cannot read as a problem, and never takes an end without a status for done", () => {
    const running = applyRenderEvent(applyRenderEvent(EMPTY_RENDER, "start", renderState()), "line", { line: "frame 1/2", status: "rendering", progress: null });
    const ended = applyRenderEvent(running, "end", { filename: "a.mp4", downloadUrl: "/renders/a.mp4" });
    expect(ended.state).toEqual(running.state);
    expect(isRunning(ended)).toBe(true);
    expect(ended.problem).toMatch(/"end" event this page cannot read/);
    const garbled = applyRenderEvent(running, "line", { text: "frame 2/2" });
    expect(garbled.lines).toEqual(running.lines);
    expect(garbled.problem).toMatch(/"line" event/);
    // The next good event clears it.
    expect(applyRenderEvent(ended, "end", renderState({ status: "done", downloadUrl: "/renders/a.mp4" })).problem).toBeNull();
  });
});

describe("renders announced by the project's stream", () => {
  const queued = renderState();
  const done = renderState({ status: "done", downloadUrl: "/renders/a.mp4", doneAt: 2 });

  it("follows a render in progress whoever started it, once, and ends it as news once", () => {
    const opened = applyAnnouncement(EMPTY_RENDER, { status: "none" }, true);
    expect(opened).toEqual({ view: EMPTY_RENDER, follow: false, ended: false });
    const started = applyAnnouncement(opened.view, queued, false);
    expect(started).toMatchObject({ follow: true, ended: false, view: { state: { id: "r1", status: "queued" } } });
    expect(isRunning(started.view)).toBe(true);
    // The same render announced again (the page's POST answer, a reconnect) leaves the followed view as it is.
    const withLine = applyRenderEvent(started.view, "line", { line: "frame 1/2", status: "rendering", progress: null });
    expect(applyAnnouncement(withLine, { ...queued, status: "rendering" }, false).view).toBe(withLine);
    const ended = applyAnnouncement(withLine, done, false);
    expect(ended).toMatchObject({ follow: false, ended: true, view: { state: done, lines: ["frame 1/2"] } });
    expect(applyAnnouncement(ended.view, done, false)).toMatchObject({ ended: false, follow: false });
  });

  it("ends a short render once: its own stream telling it running after the project's stream told its end is stale", () => {
    // A render of a second or two (carried, cached): the project's stream tells its end before the render's own
    // stream, opened at its start, delivers the snapshot it took while the render ran, then the end.
    const started = applyAnnouncement(EMPTY_RENDER, queued, false);
    const ended = applyAnnouncement(started.view, done, false);
    expect(ended.ended).toBe(true);
    const lateSnapshot = applyRenderEvent(ended.view, "snapshot", { ...renderState({ status: "rendering" }), lines: ["frame 1/2"] });
    expect(lateSnapshot.state).toEqual(done);
    const lateLine = applyRenderEvent(lateSnapshot, "line", { line: "frame 2/2", status: "rendering", progress: null });
    expect(isRunning(lateLine)).toBe(false);
    expect(applyRenderEvent(lateLine, "start", queued).state).toEqual(done);
    // The page ends a render it saw running (use-render-follow.ts): never running again, so never ended again.
    expect(isRunning(applyRenderEvent(lateLine, "end", done))).toBe(false);
    // The project's next render is news as ever.
    expect(isRunning(applyRenderEvent(lateLine, "snapshot", { ...renderState({ id: "r2", status: "rendering" }), lines: [] }))).toBe(true);
  });

  it("shows the last render as the page opens without a toast, but one that ended while the stream was down is news", () => {
    const opened = applyAnnouncement(EMPTY_RENDER, done, true);
    expect(opened).toMatchObject({ follow: true, ended: false, view: { state: done } });
    const missed = renderState({ id: "r2", status: "done", filename: "b.mp4", downloadUrl: "/renders/b.mp4" });
    const reconnected = applyAnnouncement(opened.view, missed, false);
    expect(reconnected).toMatchObject({ follow: true, ended: true, view: { state: missed, lines: [] } });
  });
});

describe("readers", () => {
  // A check verdict as the Worker answers it: lint's section, and the browser's findings made by core's own helper.
  const lintSection = { ok: true, errorCount: 0, warningCount: 1, infoCount: 0, filesScanned: 2, findings: [{ code: "gsap_global_tween", severity: "warning", message: "m", file: "index.html" }] };
  const runtimeFinding = checkFinding("console-error", "index.html", "boom", { selector: "#title", time: 1.5, fixHint: "fix it" });
  const checkVerdict = {
    ok: false,
    exitCode: 1,
    result: {
      ok: false, strict: false, errorCount: 1, warningCount: 1, infoCount: 0, lint: lintSection,
      runtime: { ok: false, errorCount: 1, warningCount: 0, infoCount: 0, findings: [runtimeFinding] },
      layout: { ok: true, errorCount: 0, warningCount: 0, infoCount: 0, findings: [], times: [0, 2, 4] },
    },
  };

  it("reads check results as lint, runtime and layout sections, with the schema the Worker answers with", () => {
    const verdict = readVerdict("check", checkVerdict);
    expect(verdict?.exitCode).toBe(1);
    expect(verdict?.sections.map((s) => [s.name, s.errorCount, s.warningCount, s.extra])).toEqual([
      ["lint", 0, 1, ["2 files scanned"]],
      ["runtime", 1, 0, []],
      ["layout", 0, 0, ["3 moments sampled"]],
    ]);
    expect(readVerdict("lint", { ok: true, exitCode: 0, result: lintSection })?.sections.map((s) => s.name)).toEqual(["lint"]);
    // A field by another name is not guessed at: the answer does not parse (the panel shows it as it came).
    expect(readVerdict("check", { ...checkVerdict, result: { ...checkVerdict.result, runtime: { ...checkVerdict.result.runtime, findings: [{ rule: "console-error", severity: "error", message: "boom", file: "index.html", at: 1 }] } } })).toBeNull();
  });

  it("shows a finding's code, where and when, read from the contract's own fields", () => {
    const shown = findingView(readVerdict("check", checkVerdict)?.sections[1]?.findings[0] as ShownFinding);
    expect(shown).toEqual({ severity: "error", code: "console-error", message: "boom", file: "index.html", selector: "#title", time: "at 1.5 s", fixHint: "fix it" });
    // Every field the view reads is one the finding schemas declare (check's, and lint's but for time).
    for (const field of SHOWN_FINDING_FIELDS) {
      expect(Object.keys(CheckFindingSchema.shape)).toContain(field);
      if (field !== "time") expect(Object.keys(lintFinding().shape)).toContain(field);
    }
  });

  it("reads ideas from lists, details, duplicate 409s and the similar check", () => {
    expect(readIdeaPage({ ideas: [ideaRecord(3, "T")], sort: "new", limit: 20, offset: 0, nextOffset: null, next: null, admin: false }).ideas[0]).toMatchObject({
      id: "3",
      votes: 2,
      voted: true,
      commentCount: 4,
      enrichmentCount: 1,
      author: "Ada",
      group: "",
    });
    const detail = readIdeaDetail({
      idea: ideaRecord(3, "T", { comments: 1, group: "tools", mine: true }),
      enrichments: [{ id: 9, ideaId: 3, kind: "angle", body: "x", name: "Bo", isBot: true, votes: 1, voted: false, createdAt: "2026-01-01T00:00:00.000Z" }],
      comments: [{ id: 1, ideaId: 3, body: "c", name: "Cy", isBot: false, createdAt: "2026-01-01T00:00:00.000Z", mine: true }],
      admin: true,
    });
    expect(detail.admin).toBe(true);
    expect(detail.idea).toMatchObject({ group: "tools", mine: true });
    expect(detail.idea.enrichments.map((e) => [e.id, e.author])).toEqual([["9", "Bo"]]);
    expect(detail.idea.comments.map((c) => [c.body, c.author, c.mine])).toEqual([["c", "Cy", true]]);
    expect(readIdea(ideaRecord(7, "Old")).id).toBe("7");
    expect(readSimilar({ duplicate: true, similar: [{ score: 0.8, idea: ideaRecord(1, "A") }] })).toEqual([
      expect.objectContaining({ score: 0.8, idea: expect.objectContaining({ id: "1", title: "A" }) }),
    ]);
  });

  // File and render entries as GET …/files and GET /api/renders answer them (the Worker's schemas' types).
  const file = (path: string, mtime = "2026-01-01T08:00:00.000Z"): FileEntry => ({ path, size: 1, mtime, type: "file" });
  const render = (filename: string, project: string, mtime: string): RenderFile => ({ id: filename, filename, project, size: 1, mtime, url: "", posterUrl: null });

  it("picks a snapshot frame as the thumbnail, else nothing", () => {
    expect(pickThumbnail([file("index.html")])).toBeNull();
    expect(pickThumbnail([file("snapshots/contact-sheet.png"), file("snapshots/frame-10.png"), file("snapshots/frame-2.png")])).toEqual({
      kind: "snapshot",
      path: "snapshots/frame-2.png",
    });
    expect(pickThumbnail([file("snapshots/contact-sheet.png")])).toEqual({ kind: "snapshot", path: "snapshots/contact-sheet.png" });
  });

  it("prefers whichever is newer: the latest render's poster frame or the snapshots", () => {
    const snaps = [file("snapshots/frame-1.png", "2026-01-01T10:00:00.000Z"), file("snapshots/contact-sheet.png", "2026-01-01T10:00:01.000Z")];
    const renders = [
      render("a_old.mp4", "a", "2026-01-01T09:00:00.000Z"),
      render("a_new.gif", "a", "2026-01-01T11:00:00.000Z"),
      render("b_newest.mp4", "b", "2026-01-01T12:00:00.000Z"),
    ];
    expect(latestRenderOf(renders, "a")?.filename).toBe("a_new.gif");
    expect(latestRenderOf(renders, "c")).toBeNull();
    expect(pickThumbnail(snaps, latestRenderOf(renders, "a"))).toEqual({ kind: "render", filename: "a_new.gif", gif: true, poster: null });
    expect(pickThumbnail(snaps, renders[0])).toEqual({ kind: "snapshot", path: "snapshots/frame-1.png" });
    expect(pickThumbnail([file("index.html")], renders[2])).toEqual({ kind: "render", filename: "b_newest.mp4", gif: false, poster: null });
    // A render with a poster image shows it instead of a paused video.
    expect(pickThumbnail([], { ...renders[2]!, posterUrl: "/renders/b_newest.mp4/poster" })).toEqual({ kind: "render", filename: "b_newest.mp4", gif: false, poster: "/renders/b_newest.mp4/poster" });
    expect(posterTime(6)).toBe(3);
    expect(posterTime(0)).toBe(0);
    // A project whose composition has no readable duration (the contract's null) gets the first frame.
    expect(posterTime(null)).toBe(0);
  });
});

describe("idea board readers and words", () => {
  it("says 1 comment, 0 comments, 2 comments", () => {
    expect([0, 1, 2, 1000].map((n) => plural(n, "comment"))).toEqual(["0 comments", "1 comment", "2 comments", "1,000 comments"]);
    expect(plural(1, "reply", "replies")).toBe("1 reply");
    expect(plural(3, "reply", "replies")).toBe("3 replies");
  });

  it("reads a page of ideas with its next offset, the caller's own ideas and whether they are an admin", () => {
    const page = readIdeaPage({ ideas: [ideaRecord(3, "t", { mine: true, comments: 1 })], sort: "hot", limit: 20, offset: 0, nextOffset: 20, next: "c", admin: true });
    expect(page).toMatchObject({ nextOffset: 20, admin: true });
    expect(page.ideas[0]).toMatchObject({ id: "3", mine: true, commentCount: 1 });
    expect(readIdeaPage({ ideas: [], sort: "hot", limit: 20, offset: 0, nextOffset: null, next: null, admin: false })).toEqual({ ideas: [], nextOffset: null, admin: false });
  });

  it("links only http(s), mailto and same-site relative targets", () => {
    expect(safeHref("https://example.com/a_(b)")).toBe("https://example.com/a_(b)");
    expect(safeHref("/ideas?id=1")).toBe("/ideas?id=1");
    for (const bad of ["javascript:alert(1)", "java\tscript:alert(1)", "//evil.example/x", "data:text/html,x", " JAVASCRIPT:x"]) {
      expect(safeHref(bad), bad).toBeNull();
    }
  });
});

describe("editor helpers", () => {
  const html = '<div id="root" data-start="0">\n  <h1 id="title" data-start="1.5">Hi</h1>\n  <audio src="a.mp3"></audio>\n</div>';

  it("places a finding on the opening tag its selector names, else on the first line", () => {
    const at = (selector?: string) => {
      const r = findingRange(html, selector);
      return html.slice(r.from, r.to);
    };
    expect(at("h1#title")).toBe('<h1 id="title" data-start="1.5">');
    expect(at("#title")).toBe('<h1 id="title" data-start="1.5">');
    expect(at('audio[src="a.mp3"]')).toBe('<audio src="a.mp3">');
    expect(at("audio")).toBe('<audio src="a.mp3">');
    expect(at("html, body")).toBe('<div id="root" data-start="0">');
    expect(at("div.nothing > p")).toBe('<div id="root" data-start="0">');
    expect(at(undefined)).toBe('<div id="root" data-start="0">');
  });

  it("reads the composition time at the cursor from the nearest data-start", () => {
    expect(timeAtCursor(html, 3)).toBe(0);
    expect(timeAtCursor(html, html.indexOf("<h1") + 2)).toBe(1.5);
    expect(timeAtCursor(html, html.indexOf("Hi"))).toBe(1.5);
    expect(timeAtCursor("<p>no times</p>", 5)).toBeNull();
  });
});

describe("render and batch requests", () => {
  it("sends only the encoder options the format takes, and values as typed for the API to judge", () => {
    const crf = { ...DEFAULT_OPTIONS, rate: "crf" as const, crf: "30", videoBitrate: "10M", gifLoop: "2" };
    expect(requestBody(crf)).toEqual({ quality: "standard", format: "mp4", strict: false, crf: 30 });
    expect(requestBody({ ...crf, rate: "bitrate" })).toEqual({ quality: "standard", format: "mp4", strict: false, videoBitrate: "10M" });
    expect(requestBody({ ...crf, format: "gif" })).toEqual({ quality: "standard", format: "gif", strict: false, gifLoop: 2 });
    expect(requestBody({ ...crf, format: "mov" })).toEqual({ quality: "standard", format: "mov", strict: false });
    expect(requestBody({ ...crf, crf: "lots" }).crf).toBe("lots");
    expect(requestBody({ ...crf, rate: "preset" })).not.toHaveProperty("crf");
  });

  it("types a table's cells by their declarations and leaves empty cells and names out", () => {
    const columns = [{ id: "title", type: "string" }, { id: "n", type: "number" }, { id: "on", type: "boolean" }];
    expect(rowsFromTable(columns, [{ name: " a ", values: { title: "Hi", n: "3", on: "true" } }, { name: "", values: { n: "x" } }])).toEqual([
      { name: "a", variables: { title: "Hi", n: 3, on: true } },
      { variables: { n: "x" } },
    ]);
    expect(rowsFromJson("[{}]")).toEqual({ ok: true, rows: [{}] });
    expect(rowsFromJson("[{")).toMatchObject({ ok: false, error: expect.stringMatching(/^the rows are not JSON: /) });
    expect(batchBody({ ...DEFAULT_OPTIONS, quality: "draft" }, [{}])).toEqual({ quality: "draft", format: "mp4", strict: false, rows: [{}] });
  });

  it("never shows a batch going back to an earlier state", () => {
    const row = (status: BatchState["rows"][number]["status"]) => ({ index: 0, name: null, status, renderId: null, filename: null, downloadUrl: null, error: null });
    const batch = (id: string, status: BatchState["status"], rowStatus: BatchState["rows"][number]["status"]): BatchState => ({ id, slug: "s", status, createdAt: 1, doneAt: null, rows: [row(rowStatus)] });
    const rendering = batch("a", "rendering", "rendering");
    expect(laterBatch(rendering, batch("a", "queued", "queued"))).toBe(rendering);
    const done = batch("a", "done", "done");
    expect(laterBatch(rendering, done)).toBe(done);
    expect(laterBatch(done, rendering)).toBe(done);
    const next = batch("b", "queued", "pending");
    expect(laterBatch(done, next)).toBe(next);
  });
});
