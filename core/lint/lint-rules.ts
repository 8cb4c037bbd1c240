// The single table of lint codes. Severity belongs to the code, so the API docs (LINT_RULES) can never
// disagree with what the linter reports. Errors break or change a frame-by-frame render; warnings are style
// and robustness issues; info findings are notes shown only with `verbose`.

const RULE_TABLE = {
  entry_missing: ["error", "The entry composition (index.html by default) is missing or empty."],
  root_missing: ["error", "No element carries data-composition-id, so the file has no composition root."],
  root_missing_attribute: ["error", "The root element lacks data-start, data-duration, data-width or data-height."],
  root_start_not_zero: ["error", "The root element's data-start is not 0."],
  root_invalid_duration: ["error", "The root element's data-duration is not a positive number of seconds."],
  root_invalid_size: ["error", "The root element's data-width or data-height is not a positive whole number of pixels."],
  canvas_size_missing: ["warning", "html/body CSS does not set the canvas width and height."],
  canvas_size_mismatch: ["error", "html/body CSS width or height differs from the root's data-width/data-height."],
  canvas_overflow_visible: ["warning", "html/body CSS does not set overflow: hidden, so overflowing content can add scrollbars."],
  gsap_missing: ["error", "The file uses gsap but no script loads it."],
  gsap_version_mismatch: ["warning", "GSAP is loaded at a version other than 3.14.2, or unpinned."],
  gsap_source_unsupported: ["error", "GSAP is loaded from a URL render nodes cannot serve (not a package CDN dist/ file)."],
  timeline_not_paused: ["error", "A gsap.timeline() is created without { paused: true }, so it plays in real time."],
  timeline_not_registered: ["error", "The composition registers no timeline on window.__timelines under its id."],
  timeline_unknown_id: ["error", "A timeline is registered under an id that no data-composition-id in the file carries."],
  gsap_global_tween: ["warning", "gsap.to/from/fromTo outside a timeline plays on the global clock, not the seeked timeline."],
  script_syntax_error: ["error", "A script does not parse as JavaScript, so none of it runs."],
  nondeterministic_api: ["error", "Scripts call Math.random, Date.now, setTimeout, setInterval or fetch."],
  nondeterministic_time: ["warning", "Scripts read the wall clock (new Date(), performance.now)."],
  requestanimationframe_in_composition: ["error", "Scripts call requestAnimationFrame, which runs on the wall clock, not on the seeked timeline."],
  gsap_infinite_repeat: ["warning", "A tween uses repeat: -1, so the timeline never ends on its own; the video is cut at data-duration."],
  gsap_non_transform_motion: ["error", "A tween animates left/top/right/bottom/margin, letterSpacing, wordSpacing or fontSize, or uses roundProps: whole-pixel steps that stutter."],
  gsap_animates_clip_element: ["error", "A tween sets visibility, display or autoAlpha on a clip element (class=\"clip\"), whose visibility the runtime manages."],
  css_unscoped_selector: ["warning", "A CSS rule is not scoped under [data-composition-id=\"<id>\"]."],
  css_wall_clock_animation: ["warning", "CSS animation or transition runs on the wall clock, outside the seeked timeline."],
  font_display_missing: ["warning", "A web font is loaded without an explicit display= / font-display value."],
  audio_missing_attribute: ["error", "An <audio> element lacks data-start, data-duration or data-track-index."],
  audio_src_outside_assets: ["warning", "An <audio> src is not a file under assets/."],
  video_not_muted: ["error", "A <video> element is not muted."],
  video_missing_attribute: ["error", "A <video> element lacks data-start."],
  media_missing_src: ["error", "An <audio> or <video> element has no src."],
  subcomp_missing_attribute: ["error", "A sub-composition host lacks data-composition-id, data-start or data-duration."],
  subcomp_missing_layout_attribute: ["warning", "A sub-composition host lacks data-track-index, data-width or data-height."],
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
  composition_summary: ["info", "Duration, canvas, timelines, sub-compositions and media of each composition."],
} as const satisfies Record<string, readonly ["error" | "warning" | "info", string]>;

export type LintCode = keyof typeof RULE_TABLE;

export interface LintRuleInfo {
  code: LintCode;
  severity: "error" | "warning" | "info";
  summary: string;
}

/** Every rule the linter can report, for the API docs. */
export const LINT_RULES: LintRuleInfo[] = (Object.keys(RULE_TABLE) as LintCode[]).map((code) => ({
  code,
  severity: RULE_TABLE[code][0],
  summary: RULE_TABLE[code][1],
}));

export function severityOf(code: LintCode): "error" | "warning" | "info" {
  return RULE_TABLE[code][0];
}
