// Duplicate detection measured on the labelled corpus, plus the building blocks on their own.
import { describe, expect, it } from "vitest";
import { DUPLICATE_CORPUS } from "./duplicate-corpus.ts";
import { ftsCandidateQuery } from "./fts-query.ts";
import { candidateTerms, ideaTerms, scoreSimilarity, scoreTerms } from "./score-similarity.ts";
import { stemWord } from "./stem-word.ts";
import { stemsOf } from "./terms-of.ts";
import { DUPLICATE_THRESHOLD } from "./thresholds.ts";
import { typoDistance } from "./typo-distance.ts";

describe("duplicate detection on the labelled corpus", () => {
  it("has enough pairs of every kind", () => {
    expect(DUPLICATE_CORPUS.length).toBeGreaterThanOrEqual(60);
    for (const kind of ["reword", "typo", "reorder", "plural", "same-topic"]) {
      expect(DUPLICATE_CORPUS.filter((p) => p.kind === kind).length).toBeGreaterThanOrEqual(8);
    }
  });

  it("reaches precision and recall of at least 0.9", () => {
    let tp = 0;
    let fp = 0;
    let fn = 0;
    const mistakes: string[] = [];
    for (const pair of DUPLICATE_CORPUS) {
      const score = scoreSimilarity(pair.a, pair.b);
      const flagged = score >= DUPLICATE_THRESHOLD;
      if (flagged && pair.duplicate) tp++;
      if (flagged && !pair.duplicate) fp++;
      if (!flagged && pair.duplicate) fn++;
      if (flagged !== pair.duplicate) mistakes.push(`${pair.kind} ${score.toFixed(2)} "${pair.a.title}" / "${pair.b.title}"`);
    }
    const precision = tp / (tp + fp);
    const recall = tp / (tp + fn);
    console.log(
      `duplicate corpus: ${DUPLICATE_CORPUS.length} pairs, threshold ${DUPLICATE_THRESHOLD}, ` +
        `precision ${precision.toFixed(3)}, recall ${recall.toFixed(3)}\n  ${mistakes.join("\n  ")}`,
    );
    expect(precision).toBeGreaterThanOrEqual(0.9);
    expect(recall).toBeGreaterThanOrEqual(0.9);
  });
});

describe("building blocks", () => {
  it("stems plural, -ing, -ed and -ation forms to one stem", () => {
    expect(new Set(["captions", "caption", "captioning", "captioned"].map(stemWord)).size).toBe(1);
    expect(new Set(["generate", "generating", "generation", "generated"].map(stemWord)).size).toBe(1);
    expect(new Set(["stories", "story"].map(stemWord)).size).toBe(1);
    expect(stemWord("mp4")).toBe("mp4");
  });

  it("folds synonyms and drops stopwords", () => {
    expect(stemsOf("Add the subtitles to a clip")).toEqual(stemsOf("add captions to the video"));
  });

  it("counts a swap of adjacent letters as one typo and gives up past the limit", () => {
    expect(typoDistance("caption", "captoin", 1)).toBe(1);
    expect(typoDistance("kitten", "sitting", 1)).toBe(2);
    expect(typoDistance("abc", "abc", 0)).toBe(0);
  });

  it("scores identical ideas 1 and unrelated ones 0", () => {
    expect(scoreSimilarity({ title: "Custom fonts" }, { title: "custom FONTS!" })).toBe(1);
    expect(scoreSimilarity({ title: "Custom fonts" }, { title: "Render queue priority" })).toBe(0);
    expect(scoreSimilarity({ title: "" }, { title: "" })).toBe(0);
  });
});

describe("FTS candidate query", () => {
  it("asks for two shared stems, with typo prefixes, in the title column", () => {
    expect(ftsCandidateQuery("Automatic subtitles for videos")).toBe(
      'title_terms : ((("automatic" OR "auto"*) AND ("caption" OR "capt"* OR "subtitl" OR "subt"*)))',
    );
    expect(ftsCandidateQuery("Fonts")).toBe('title_terms : ("font")');
    expect(ftsCandidateQuery("the of and")).toBeNull();
  });
});

describe("candidateTerms", () => {
  it("scores a title-only query exactly as with full terms, without tokenising the candidate's body", () => {
    const query = ideaTerms({ title: "Auto captions for videos" });
    const candidate = { title: "Automatic captions for video", body: "Generate captions from speech for every uploaded clip automatically." };
    const lazy = candidateTerms(query, candidate);
    expect(lazy.body).toEqual([]);
    expect(scoreTerms(query, lazy)).toBe(scoreTerms(query, ideaTerms(candidate)));
    const longQuery = ideaTerms({ title: "Auto captions", body: "Captions made from the speech track of each clip." });
    expect(candidateTerms(longQuery, candidate).body.length).toBeGreaterThan(0);
  });
});
