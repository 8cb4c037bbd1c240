// Timing and gain attributes the runtime cannot use as written: a data-start naming no clip, a cycle of such
// references or unreadable text (the clip would start at a default, not where the author meant), a data-volume
// outside what the mixer plays (0 to +12 dB) and a data-playback-rate outside 0.1–10. Same grammar and ranges as
// the runtime and the node.
import { volumeProblem } from "../../composition/audio-gain.ts";
import { playbackRateProblem } from "../../composition/playback-rate.ts";
import { describeStartProblem, findStartProblems } from "../../composition/clip-start.ts";
import { describeElement } from "../../html/describe-element.ts";
import { hasAttribute, readAttribute } from "../../html/parse-html.ts";
import { createFinding } from "../create-finding.ts";
import type { CompositionFile } from "../load-composition.ts";
import type { ProjectContext } from "../project-context.ts";
import type { LintFinding } from "../types.ts";

/** Every id and data-composition-id in the project: sub-compositions are inlined into one page, so a clip may name one in another file. */
function projectIds(project: ProjectContext): Set<string> {
  const ids = new Set<string>();
  for (const composition of project.compositions) {
    for (const element of composition.elements) {
      const id = readAttribute(element, "id");
      if (id) ids.add(id);
      const compositionId = readAttribute(element, "data-composition-id");
      if (compositionId) ids.add(compositionId);
    }
  }
  return ids;
}

export function checkClipTiming(file: CompositionFile, project: ProjectContext): LintFinding[] {
  const findings: LintFinding[] = [];
  const timed = file.elements.filter((element) => hasAttribute(element, "data-start") && element !== file.root);
  const ids = projectIds(project);
  const clips = timed.map((element) => ({ id: readAttribute(element, "id") || null, raw: readAttribute(element, "data-start") ?? "" }));
  for (const problem of findStartProblems(clips, (id) => ids.has(id))) {
    const element = timed[clips.findIndex((clip) => clip.id === problem.id && (problem.kind === "cycle" || clip.raw.trim() === problem.raw))] ?? null;
    findings.push(createFinding("clip_start_unresolved", file.path, describeStartProblem(problem), {
      ...(element ? { selector: describeElement(element) } : {}),
      fixHint: problem.kind === "cycle"
        ? "Give one clip of the cycle a start in seconds (data-start=\"2\"), so the others can count from it."
        : 'Write seconds (data-start="2") or the id of another clip, optionally with an offset: data-start="intro + 0.5" starts 0.5 s after #intro ends.',
    }));
  }
  for (const element of file.elements) {
    if (element.name !== "audio" && element.name !== "video") continue;
    const problem = volumeProblem(readAttribute(element, "data-volume"));
    if (problem) {
      findings.push(createFinding("audio_volume_out_of_range", file.path, problem, {
        selector: describeElement(element),
        fixHint: 'data-volume is a linear gain: 0 is silence, 1 the file\'s own level, 3.98 the most (+12 dB); e.g. data-volume="2" for +6 dB.',
      }));
    }
    const rateProblem = playbackRateProblem(readAttribute(element, "data-playback-rate"));
    if (rateProblem) {
      findings.push(createFinding("media_playback_rate_out_of_range", file.path, rateProblem, {
        selector: describeElement(element),
        fixHint: 'data-playback-rate is the clip\'s constant speed, from 0.1 to 10: data-playback-rate="2" plays it twice as fast (the sound keeps its pitch).',
      }));
    }
  }
  return findings;
}
