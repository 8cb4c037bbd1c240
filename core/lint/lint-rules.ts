// The single table of lint codes. Severity belongs to the code, so the API docs (LINT_RULES) can never
// disagree with what the linter reports. Errors break or change a frame-by-frame render; warnings are style
// and robustness issues; info findings are notes shown only with `verbose`.
import { COMPOSITION_LIMITS } from "../composition/composition-limits.ts";

const LIMITS = COMPOSITION_LIMITS;

const RULE_TABLE = {
  entry_missing: ["error", "The entry composition (index.html by default) is missing or empty."],
  root_missing: ["error", "No element carries data-composition-id, so the file has no composition root."],
  root_missing_attribute: ["error", "The root element lacks data-duration, data-width or data-height."],
  root_missing_start: ["warning", "Studio rule: the root element carries data-start=\"0\"; without it the composition starts at 0 all the same."],
  root_start_not_zero: ["error", "The root element's data-start is not 0."],
  root_invalid_duration: ["error", "The root element's data-duration is not a positive number of seconds."],
  root_invalid_size: ["error", "The root element's data-width or data-height is not a positive whole number of pixels."],
  root_invalid_poster_time: ["warning", "The root element's data-poster-time is not a number of seconds within its data-duration, so renders' posters show the default moment."],
  root_over_limit: ["error", `The root element is over the studio's limits: a side over ${LIMITS.maxSide} px, a canvas over ${LIMITS.maxPixels.toLocaleString("en-US")} px (4096x2160), data-fps over ${LIMITS.maxFps}, data-duration over ${LIMITS.maxDurationSeconds} s, or over ${LIMITS.maxFrames.toLocaleString("en-US")} frames; renders, snapshots, checks and previews of it are refused.`],
  canvas_size_missing: ["warning", "Studio rule: the entry's html/body CSS sets the canvas width and height."],
  canvas_size_mismatch: ["error", "html/body CSS width or height differs from the root's data-width/data-height."],
  canvas_overflow_visible: ["warning", "Studio rule: the entry's html/body CSS sets overflow: hidden, so overflowing content cannot add scrollbars."],
  gsap_missing: ["error", "The file uses gsap but no script loads it."],
  gsap_version_mismatch: ["warning", "GSAP is loaded at a version render nodes do not ship (3.12.5, 3.13.0, 3.14.2), or unpinned: the nearest shipped release renders."],
  gsap_source_unsupported: ["error", "GSAP is loaded from a URL render nodes cannot serve (not a package CDN dist/ file)."],
  timeline_not_paused: ["error", "A gsap.timeline() is created without { paused: true }, so it plays in real time."],
  timeline_not_registered: ["error", "The composition registers no timeline on window.__timelines under its id."],
  timeline_unknown_id: ["error", "A timeline is registered under an id that no data-composition-id in the file carries."],
  gsap_global_tween: ["warning", "gsap.to/from/fromTo outside a timeline plays on the global clock, not the seeked timeline."],
  script_syntax_error: ["error", "A script does not parse as JavaScript, so none of it runs."],
  nondeterministic_api: ["error", "Scripts call Math.random, crypto.getRandomValues, gsap.utils.random, Date.now, setTimeout, setInterval or fetch."],
  nondeterministic_time: ["error", "Scripts read the wall clock (new Date() without arguments, performance.now)."],
  requestanimationframe_in_composition: ["error", "Scripts call requestAnimationFrame, which runs on the wall clock, not on the seeked timeline."],
  gsap_infinite_repeat: ["warning", "A tween uses repeat: -1, so the timeline never ends on its own; the video is cut at data-duration."],
  gsap_non_transform_motion: ["error", "A tween animates left/top/right/bottom/margin, letterSpacing, wordSpacing or fontSize, or uses roundProps: whole-pixel steps that stutter."],
  gsap_animates_clip_element: ["error", "A tween sets visibility, display or autoAlpha on a clip element (class=\"clip\"), whose visibility the runtime manages."],
  css_unscoped_selector: ["warning", "Studio rule: a CSS rule is scoped under [data-composition-id=\"<id>\"]."],
  css_wall_clock_animation: ["warning", "CSS animation or transition runs on the wall clock, outside the seeked timeline."],
  font_family_without_font_face: ["error", "A font-family has no @font-face in the project, is not a bundled family and is not linked from Google Fonts."],
  font_display_missing: ["warning", "Studio rule: a web font is loaded with an explicit display= / font-display value."],
  audio_missing_attribute: ["error", "An <audio> element lacks data-start."],
  audio_missing_optional_attribute: ["warning", "Studio rule: an <audio> element carries data-duration and data-track-index; without them it sounds to its end, on its own track."],
  audio_src_outside_assets: ["warning", "Studio rule: an <audio> src is a file under assets/."],
  video_not_muted: ["warning", "Studio rule: a <video> is muted, or says with data-has-audio whether its sound is wanted; an unmuted one's sound is mixed into the render."],
  video_missing_attribute: ["error", "A <video> element lacks data-start."],
  media_missing_src: ["error", "An <audio> or <video> element has no src."],
  subcomp_missing_attribute: ["error", "A sub-composition host lacks data-composition-id."],
  subcomp_missing_timing_attribute: ["warning", "Studio rule: a sub-composition host carries data-start and data-duration; without them it starts with its parent and lasts as long as its own timeline."],
  subcomp_missing_layout_attribute: ["warning", "Studio rule: a sub-composition host carries data-track-index, data-width and data-height."],
  subcomp_host_not_div: ["warning", "A sub-composition host is not a <div>."],
  subcomp_src_outside_compositions: ["warning", "data-composition-src does not point to compositions/<file>.html."],
  subcomp_file_missing: ["error", "The file named by data-composition-src does not exist in the project."],
  subcomp_file_empty: ["error", "The file named by data-composition-src is empty."],
  subcomp_id_mismatch: ["error", "The sub-composition file's root id differs from its host's data-composition-id."],
  asset_missing: ["error", "A src, href or url() points to a project file that does not exist."],
  asset_path_parent: ["error", "An asset path contains `..`; paths must stay inside the project."],
  asset_path_absolute: ["warning", "An asset path starts with `/`; use a project-relative path."],
  remote_resource: ["warning", "A resource is loaded from another host; render nodes only serve project files and the GSAP CDN."],
  duplicate_element_id: ["warning", "Two elements in one file share an id."],
  duplicate_composition_id: ["error", "Two compositions (or two hosts) in the project share a data-composition-id."],
  variable_undeclared: ["warning", "A script reads a variable through getVariables() that no data-composition-variables of its file declares (nor a host's data-variable-values), so it is undefined unless a render passes it."],
  library_script_finding: ["warning", "A local library file (.min.js, under vendor/ or node_modules/, a license banner, or minified) breaks a composition rule; it is not composition code, so this is a warning naming the file."],
  clip_start_unresolved: ["error", "A data-start is neither seconds nor a clip id with an optional offset (\"intro + 2\"), names an id no element has, or is part of a cycle of references, so the clip does not start where it says."],
  audio_volume_out_of_range: ["warning", "An <audio>/<video> data-volume is not a number, negative, or above +12 dB (3.98), so it plays clamped (0 to 3.98, junk at 1)."],
  hyperframes_feature_unsupported: ["warning", "Part of an element's HyperFrames media treatment (data-color-grading, data-fx-chain, data-automation) is not rendered by the studio (a grade's vignette or grain, reverb and dynamics effects, an effect-parameter lane...); the message names it, and the rest of the treatment still renders."],
  media_playback_rate_out_of_range: ["warning", "An <audio>/<video> data-playback-rate is not a positive number, or outside 0.1–10, so it plays at 1 or clamped."],
  composition_summary: ["info", "Duration, canvas, timelines, sub-compositions and media of each composition."],
} as const satisfies Record<string, readonly ["error" | "warning" | "info", string]>;

export type LintCode = keyof typeof RULE_TABLE;

/**
 * Each rule's counterpart in `hyperframes lint --json` (0.8.170): the code(s) HyperFrames reports for the same
 * problem (none: a rule of seed 000 or of the studio's render nodes that HyperFrames does not have), and where the
 * two deliberately differ, why. Typed by LintCode, so a new rule cannot be added without saying this; the docs'
 * table and bench/lint-parity.ts read it.
 */
const HYPERFRAMES: Record<LintCode, { codes: string[]; difference?: string }> = {
  entry_missing: { codes: [], difference: "HyperFrames lints whatever HTML the folder holds; the studio renders index.html (or the named composition), so its absence is an error." },
  root_missing: { codes: ["root_missing_composition_id"], difference: "Not repeated for an empty sub-composition file, which subcomp_file_empty reports once; HyperFrames reports both." },
  root_missing_attribute: { codes: ["root_missing_dimensions"], difference: "Also data-duration (seed 000, rule 2), still an error: HyperFrames derives a missing duration from the timeline (no composition of the parity corpus or of HyperFrames' templates lacks it, so the two renders were not compared)." },
  root_missing_start: { codes: [], difference: "Seed 000, rule 2; both renderers start the root at 0 without it." },
  root_start_not_zero: { codes: [], difference: "Seed 000, rule 2." },
  root_invalid_duration: { codes: [], difference: "Seed 000, rule 2." },
  root_invalid_size: { codes: [], difference: "Seed 000, rule 2; HyperFrames only compares the size with the html/body CSS (root_dimensions_mismatch)." },
  root_invalid_poster_time: { codes: [], difference: "HyperFrames has no poster time: the studio's render posters (issue 34)." },
  root_over_limit: { codes: [], difference: "The studio's limits: render nodes are shared, so one composition may not make them allocate without bound." },
  canvas_size_missing: { codes: [], difference: "Seed 000, rule 1; the entry only (a sub-composition's html/body is not the page)." },
  canvas_size_mismatch: { codes: ["root_dimensions_mismatch"], difference: "An error here, a warning in HyperFrames: a body smaller than the root crops the video, a wrong frame. A size that is not a number is root_invalid_size here, a mismatch in HyperFrames." },
  canvas_overflow_visible: { codes: [], difference: "Seed 000, rule 1; the entry only (a sub-composition's html/body is not the page)." },
  gsap_missing: { codes: ["missing_gsap_script"] },
  gsap_version_mismatch: { codes: [], difference: "Seed 000, rule 3 (render nodes serve GSAP 3.12.5, 3.13.0 and 3.14.2; any other version renders with the nearest)." },
  gsap_source_unsupported: { codes: [], difference: "Render nodes have no network and serve GSAP only from package-CDN URLs." },
  timeline_not_paused: { codes: [], difference: "Seed 000, rule 4." },
  timeline_not_registered: { codes: ["gsap_timeline_not_registered", "missing_timeline_registry"], difference: "Also reported next to timeline_unknown_id when the only timeline is registered under a wrong key (nothing is registered under the composition's id); HyperFrames then reports timeline_id_mismatch alone." },
  timeline_unknown_id: { codes: ["timeline_id_mismatch"] },
  gsap_global_tween: { codes: [], difference: "The studio's own warning: a global tween plays on GSAP's clock, not on the seeked timeline." },
  script_syntax_error: { codes: ["invalid_inline_script_syntax"], difference: "Also local script files, reported under their own path." },
  nondeterministic_api: { codes: ["non_deterministic_code"], difference: "Also setTimeout, setInterval and fetch (seed 000, rule 5)." },
  nondeterministic_time: { codes: ["non_deterministic_code"] },
  requestanimationframe_in_composition: { codes: ["requestanimationframe_in_composition"] },
  gsap_infinite_repeat: { codes: ["gsap_infinite_repeat"], difference: "Always a warning: a root without a finite data-duration is already an error here (root_missing_attribute), where HyperFrames makes this one an error." },
  gsap_non_transform_motion: { codes: ["gsap_non_transform_motion"] },
  gsap_animates_clip_element: { codes: ["gsap_animates_clip_element"] },
  css_unscoped_selector: { codes: [], difference: "Seed 000, rule 6 (the runtime still scopes sub-composition CSS as HyperFrames does)." },
  css_wall_clock_animation: { codes: ["css_transition_used"], difference: "Also CSS @keyframes animations, which run on the wall clock in the studio's runtime." },
  font_display_missing: { codes: [], difference: "Seed 000, rule 7." },
  font_family_without_font_face: { codes: ["font_family_without_font_face"] },
  audio_missing_attribute: { codes: ["media_missing_data_start"] },
  audio_missing_optional_attribute: { codes: [], difference: "Seed 000, rule 8; the render is the same without them (the sound plays to its end, as in HyperFrames)." },
  audio_src_outside_assets: { codes: [], difference: "Seed 000, rule 8." },
  video_not_muted: { codes: ["video_missing_muted"], difference: "A warning (seed 000, rule 8): the studio renders an unmuted <video> and mixes its sound (as HyperFrames mixes a video with data-has-audio=\"true\"); HyperFrames makes the undeclared case an error. Both say nothing when data-has-audio is given; HyperFrames asks only of a <video> with data-start." },
  video_missing_attribute: { codes: ["media_missing_data_start"] },
  media_missing_src: { codes: ["media_missing_src"], difference: "Any <audio>/<video> without src; HyperFrames only when it also has data-start and an id." },
  subcomp_missing_attribute: { codes: ["host_missing_composition_id"] },
  subcomp_missing_timing_attribute: { codes: [], difference: "Seed 000, rule 9; both renderers start such a host at its parent's start and end it with its timeline." },
  subcomp_missing_layout_attribute: { codes: [], difference: "Seed 000, rule 9." },
  subcomp_host_not_div: { codes: [], difference: "Seed 000, rule 9." },
  subcomp_src_outside_compositions: { codes: [], difference: "Seed 000, rule 9." },
  subcomp_file_missing: { codes: ["missing_or_empty_sub_composition"] },
  subcomp_file_empty: { codes: ["missing_or_empty_sub_composition"] },
  subcomp_id_mismatch: { codes: [], difference: "The studio's own check: the host's id must name the file's root, whose timeline it seeks." },
  asset_missing: { codes: ["missing_local_asset"], difference: "Also CSS url() and link href; HyperFrames checks src attributes. A path with `..` is reported once, as asset_path_parent, where HyperFrames also calls it missing." },
  asset_path_parent: { codes: ["invalid_parent_traversal_in_asset_path"] },
  asset_path_absolute: { codes: [], difference: "The studio's own warning: a path from / breaks when the project is served under a prefix (shares, previews)." },
  remote_resource: { codes: [], difference: "Render nodes have no network: a remote resource never loads." },
  duplicate_element_id: { codes: [], difference: "The studio's own warning." },
  duplicate_composition_id: { codes: ["duplicate_composition_id"], difference: "Across the whole project, hosts included (all timelines share window.__timelines); HyperFrames checks one file and skips hosts." },
  variable_undeclared: { codes: [], difference: "The studio's own warning; HyperFrames checks data-var-* bindings (unknown_variable_binding), not getVariables() reads." },
  library_script_finding: { codes: [], difference: "HyperFrames does not lint library files at all (it skips *.min.js, vendor/ and node_modules/); here their findings stay visible, as warnings." },
  clip_start_unresolved: { codes: [], difference: "HyperFrames' lint does not check start references; its runtime then starts the clip as if it had no data-start (at its composition's start, or 0) without a word. The studio's runtime does the same for parity, and says so in a start-unresolved finding." },
  audio_volume_out_of_range: { codes: [], difference: "HyperFrames' mixer clamps silently to the same range; the studio's own warning says what plays." },
  hyperframes_feature_unsupported: { codes: [], difference: "HyperFrames renders these parts of its media treatments (its media-use skill); the studio renders the rest and says so instead of rendering without them silently." },
  media_playback_rate_out_of_range: { codes: [], difference: "HyperFrames reads and clamps data-playback-rate the same way without a word; the studio's own warning says what plays." },
  composition_summary: { codes: [], difference: "Info only (verbose)." },
};

export interface LintRuleInfo {
  code: LintCode;
  severity: "error" | "warning" | "info";
  summary: string;
  /** HyperFrames' code(s) for the same problem; empty when it has none. */
  hyperframes: string[];
  /** Why the rule deliberately differs from HyperFrames (code, severity or scope), if it does. */
  difference?: string;
}

/** Every rule the linter can report, for the API docs and the parity bench. */
export const LINT_RULES: LintRuleInfo[] = (Object.keys(RULE_TABLE) as LintCode[]).map((code) => {
  const counterpart = HYPERFRAMES[code];
  return {
    code,
    severity: RULE_TABLE[code][0],
    summary: RULE_TABLE[code][1],
    hyperframes: counterpart.codes,
    ...(counterpart.difference !== undefined ? { difference: counterpart.difference } : {}),
  };
});

/**
 * A rule of the studio's own composition rules (seed 000, served in its docs) that HyperFrames does not have and
 * whose breach renders the same: its summary opens with "Studio rule:", and each finding's message with
 * "studio rule: " (create-finding.ts), so an agent linting a HyperFrames composition reads it as the studio's
 * convention, not as a broken render.
 */
export function isStudioRule(code: LintCode): boolean {
  return RULE_TABLE[code][1].startsWith("Studio rule:");
}

export function severityOf(code: LintCode): "error" | "warning" | "info" {
  return RULE_TABLE[code][0];
}
