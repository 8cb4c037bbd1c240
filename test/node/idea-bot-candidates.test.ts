// Where the daily idea bot finds ideas (bots/idea-bot/find-candidates.ts): the bullets of a research record's
// open-questions, ideas, next-steps and future-work sections, newest record first, never its own run logs.
import { describe, expect, it } from "vitest";
import { bulletsOf, findCandidates, titleOf } from "../../bots/idea-bot/find-candidates.ts";

const record = (slug: string, body: string, updated: string, kind = "research") => ({ slug, kind, name: `Record ${slug}`, body_md: body, updated_at: updated });

describe("the idea bot's candidates", () => {
  it("takes bullets only under the idea sections, with continuation lines, and skips scraps", () => {
    const md = [
      "# Findings", "- not an idea: a finding", "## Open questions", "- Could renders stream to the dashboard while they encode?",
      "  Partial files would let people scrub early.", "* ok", "1. Should snapshots support a grid of sub-compositions?",
      "## Notes", "- a note, not an idea", "### Next steps:", "+ Ship a waveform view for audio tracks.",
    ].join("\n");
    expect(bulletsOf(md)).toEqual([
      "Could renders stream to the dashboard while they encode? Partial files would let people scrub early.",
      "Should snapshots support a grid of sub-compositions?",
      "Ship a waveform view for audio tracks.",
    ]);
  });

  it("titles an idea by its first sentence, without Markdown, at most 120 characters", () => {
    expect(titleOf("Could renders stream while they encode? Partial files help.")).toBe("Could renders stream while they encode?");
    expect(titleOf("Ship a **waveform** view.")).toBe("Ship a waveform view");
    const long = titleOf(`Support ${"very ".repeat(40)}long titles`);
    expect(long.length).toBeLessThanOrEqual(121);
    expect(long.endsWith("…")).toBe(true);
  });

  it("orders by newest record, drops repeats and the bot's own run logs, and names the source", () => {
    const candidates = findCandidates(
      [
        record("old", "## Ideas\n- Ship a waveform view for audio tracks.", "2026-01-01T00:00:00Z"),
        record("new", "## Ideas\n- Add keyboard shortcuts to the player.\n- Ship a waveform view for audio tracks.", "2026-06-01T00:00:00Z"),
        record("idea-bot-run-2026-06-02", "## Ideas\n- Something the bot logged itself.", "2026-06-02T00:00:00Z", "bot-run"),
      ],
      "bot-run",
    );
    expect(candidates.map((c) => [c.title, c.source])).toEqual([
      ["Add keyboard shortcuts to the player", "research:new"],
      ["Ship a waveform view for audio tracks", "research:new"],
    ]);
    expect(candidates[0]!.body).toContain('From the research record "Record new" (new).');
  });
});
