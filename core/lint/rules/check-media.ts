// Audio is mixed by the renderer from its data-* timing; video frames are seeked, and only muted video autoplays.
import { describeElement } from "../../html/describe-element.ts";
import { hasAttribute, listChildElements, readAttribute, type HtmlElement } from "../../html/parse-html.ts";
import { createFinding } from "../create-finding.ts";
import type { CompositionFile } from "../load-composition.ts";
import { classifyReference, normalizePath, pathOf } from "../project-paths.ts";
import type { LintFinding } from "../types.ts";

/** The element's src, or the first <source src> child's. */
export function readMediaSrc(element: HtmlElement): string | null {
  const own = readAttribute(element, "src");
  if (own?.trim()) return own.trim();
  const source = listChildElements(element).find((child) => child.name === "source" && readAttribute(child, "src")?.trim());
  return source ? (readAttribute(source, "src") ?? "").trim() : null;
}

function checkAudio(file: CompositionFile, element: HtmlElement): LintFinding[] {
  const findings: LintFinding[] = [];
  const selector = describeElement(element);
  const src = readMediaSrc(element);
  if (src === null) {
    findings.push(createFinding("media_missing_src", file.path, "An <audio> element has no src, so there is nothing to mix.", { selector, fixHint: 'Add src="assets/<file>.mp3" pointing at a file you uploaded.' }));
  } else if (classifyReference(src) === "local" && !normalizePath(pathOf(src)).startsWith("assets/")) {
    findings.push(createFinding("audio_src_outside_assets", file.path, `The <audio> src "${src}" is not under assets/.`, { selector, fixHint: "Upload the file under assets/ and use src=\"assets/<file>\"." }));
  }
  const fixHint = `Write it like <audio src="${src ?? "assets/music.mp3"}" data-start="0" data-duration="6" data-track-index="2"></audio>.`;
  if (!hasAttribute(element, "data-start")) {
    findings.push(createFinding("audio_missing_attribute", file.path, "An <audio> element lacks data-start; the renderer places audio on the timeline only from it.", { selector, fixHint }));
  }
  // Without these the render is the same as HyperFrames' (to the file's end, its own track): the studio's rule.
  const optional = ["data-duration", "data-track-index"].filter((name) => !hasAttribute(element, name));
  if (optional.length > 0) {
    findings.push(createFinding("audio_missing_optional_attribute", file.path, `An <audio> element lacks ${optional.join(", ")}; it sounds to the end of its file.`, { selector, fixHint }));
  }
  return findings;
}

function checkVideo(file: CompositionFile, element: HtmlElement): LintFinding[] {
  const findings: LintFinding[] = [];
  const selector = describeElement(element);
  if (readMediaSrc(element) === null) {
    findings.push(createFinding("media_missing_src", file.path, "A <video> element has no src, so it renders as an empty box.", { selector, fixHint: 'Add src="assets/<file>.mp4" pointing at a file you uploaded.' }));
  }
  // data-has-audio says what the author wants of its sound (HyperFrames' convention, which the renderer follows).
  if (!hasAttribute(element, "muted") && !hasAttribute(element, "data-has-audio")) {
    findings.push(createFinding("video_not_muted", file.path, "A <video> element is neither muted nor says data-has-audio; its sound, if the file has one, is mixed into the render.", {
      selector,
      fixHint: 'Add muted for silent footage, or data-has-audio="true" to keep its sound (or put the sound in an <audio> with the same file and timing).',
    }));
  }
  if (!hasAttribute(element, "data-start")) {
    findings.push(createFinding("video_missing_attribute", file.path, "A <video> element has no data-start, so the renderer cannot tell when its playback begins.", {
      selector,
      fixHint: 'Add data-start="<seconds>" (and data-duration="<seconds>").',
    }));
  }
  return findings;
}

export function checkMedia(file: CompositionFile): LintFinding[] {
  return file.elements.flatMap((element) => {
    if (element.name === "audio") return checkAudio(file, element);
    if (element.name === "video") return checkVideo(file, element);
    return [];
  });
}
