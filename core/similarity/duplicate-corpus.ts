// Labelled pairs of idea titles (some with bodies) for measuring duplicate detection. Positives are the same idea
// said differently: rewordings, typos, reordered words, plural/singular. Negatives are different ideas on the
// same topic, the case a careless matcher gets wrong.
import type { IdeaText } from "./score-similarity.ts";

export type PairKind = "reword" | "typo" | "reorder" | "plural" | "same-topic";

export interface LabelledPair {
  kind: PairKind;
  a: IdeaText;
  b: IdeaText;
  duplicate: boolean;
}

const dup = (kind: PairKind, a: string, b: string): LabelledPair => ({ kind, a: { title: a }, b: { title: b }, duplicate: true });
const diff = (a: string, b: string): LabelledPair => ({ kind: "same-topic", a: { title: a }, b: { title: b }, duplicate: false });

export const DUPLICATE_CORPUS: LabelledPair[] = [
  // Rewordings
  dup("reword", "Automatic subtitles for clips", "Auto-generate captions for videos"),
  dup("reword", "Export videos as GIF", "Let users download their video as a GIF"),
  dup("reword", "Dark mode for the dashboard", "Dashboard dark theme"),
  dup("reword", "Add background music to a project", "Put a soundtrack behind the project"),
  dup("reword", "Keyboard shortcuts in the timeline editor", "Hotkeys for the timeline editor"),
  dup("reword", "Text to speech voiceover for scenes", "Narration of scenes with text to speech"),
  dup("reword", "Generate a thumbnail from the first frame", "Make the cover image from the first frame"),
  dup("reword", "Real-time collaboration on projects", "Multiplayer editing of projects in real time"),
  dup("reword", "Translate captions into other languages", "Caption translation to other languages"),
  dup("reword", "Schedule renders for later", "Plan a render to run later"),
  dup("reword", "Remove the background from webcam footage", "Erase webcam video backgrounds"),
  dup("reword", "Project templates for product launches", "Starter presets for product launch videos"),
  // Typos
  dup("typo", "Automatic subtitels for videos", "Automatic subtitles for videos"),
  dup("typo", "Expotr to WebM format", "Export to WebM format"),
  dup("typo", "Keyboard shorcuts for the timeline", "Keyboard shortcuts for the timeline"),
  dup("typo", "Backgroud music library", "Background music library"),
  dup("typo", "Transistion effects between scenes", "Transition effects between scenes"),
  dup("typo", "Webhook when a render finishes", "Webhok when a rendr finishes"),
  dup("typo", "Brand kit with logos and colours", "Brand kit with logso and colours"),
  dup("typo", "Vertical videos for TikTok", "Vertcal videos for TikTok"),
  dup("typo", "Render progress notifications by email", "Render progres notifications by emial"),
  dup("typo", "Undo history in the editor", "Undo hsitory in the editor"),
  // Reordered words
  dup("reorder", "Timeline zoom with the mouse wheel", "Mouse wheel zoom on the timeline"),
  dup("reorder", "Render queue priority for paid plans", "Paid plans get priority in the render queue"),
  dup("reorder", "Stock footage search inside the editor", "Inside the editor, search stock footage"),
  dup("reorder", "Color grading presets", "Presets for color grading"),
  dup("reorder", "API webhooks for render events", "Render events as webhooks in the API"),
  dup("reorder", "Audio waveform in the timeline", "Timeline shows the audio waveform"),
  dup("reorder", "Bulk export of all scenes", "Export all scenes in bulk"),
  dup("reorder", "Shareable preview links", "Links to share a preview"),
  // Plural / singular
  dup("plural", "Custom font", "Custom fonts"),
  dup("plural", "Lower third templates", "Lower thirds template"),
  dup("plural", "Support for multiple aspect ratios", "Support multiple aspect ratio"),
  dup("plural", "Animated chart from a CSV file", "Animated charts from CSV files"),
  dup("plural", "Team workspaces with shared assets", "Team workspace with shared asset"),
  dup("plural", "Reusable scene components", "Reusable scene component"),
  dup("plural", "Emoji reactions on comments", "Emoji reaction on comment"),
  dup("plural", "Picture-in-picture layouts", "Picture in picture layout"),
  // With bodies: the body confirms a reworded title
  {
    kind: "reword",
    a: { title: "Auto captions", body: "Transcribe the voice track and burn the subtitles into the rendered video with a style picker." },
    b: { title: "Burned-in subtitles from speech", body: "Use speech recognition on the voice track and render subtitles into the video, with a choice of style." },
    duplicate: true,
  },
  {
    kind: "reword",
    a: { title: "Render status in Slack", body: "Post a message to a Slack channel when a render starts, fails or completes." },
    b: { title: "Slack notifications for renders", body: "Notify a Slack channel whenever a render is started, has failed, or has completed." },
    duplicate: true,
  },
  // Same topic, different idea
  diff("Dark mode for the dashboard", "Light mode for the dashboard"),
  diff("Export to MP4", "Export to GIF"),
  diff("Automatic subtitles for videos", "Translate subtitles into other languages"),
  diff("Background music library", "Background blur for webcam footage"),
  diff("Keyboard shortcuts for the timeline", "Snap clips to the timeline grid"),
  diff("Render progress notifications by email", "Render progress bar in the browser tab"),
  diff("Vertical videos for TikTok", "Upload videos directly to TikTok"),
  diff("Text to speech voiceover", "Record voiceover with the microphone"),
  diff("Custom fonts", "Custom colour palettes"),
  diff("Team workspaces with shared assets", "Team billing with one invoice"),
  diff("Webhook when a render finishes", "Webhook when a project is deleted"),
  diff("Undo history in the editor", "Version history of projects"),
  diff("Animated charts from CSV files", "Animated maps from GeoJSON files"),
  diff("Timeline zoom with the mouse wheel", "Timeline markers for beats"),
  diff("Stock footage search inside the editor", "Stock music search inside the editor"),
  diff("Shareable preview links", "Password-protected preview links"),
  diff("Color grading presets", "Color picker with eyedropper"),
  diff("Brand kit with logos and colours", "Logo animation intro"),
  diff("Render queue priority for paid plans", "Render on GPU nodes for paid plans"),
  diff("Lower third templates", "Intro and outro templates"),
  diff("Emoji reactions on comments", "Threaded replies on comments"),
  diff("Picture-in-picture layouts", "Split screen layouts"),
  diff("Transition effects between scenes", "Particle effects on text"),
  diff("Audio waveform in the timeline", "Audio ducking under voiceover"),
  diff("Bulk export of all scenes", "Bulk delete of old renders"),
  diff("Generate a thumbnail from the first frame", "Freeze frame effect"),
  diff("Schedule renders for later", "Cancel a render in progress"),
  diff("Support for multiple aspect ratios", "Support for 60 fps output"),
  diff("Real-time collaboration on projects", "Comments on projects"),
  diff("Remove the background from webcam footage", "Blur faces in webcam footage"),
  {
    kind: "same-topic",
    a: { title: "Auto captions", body: "Transcribe the voice track and burn the subtitles into the rendered video with a style picker." },
    b: { title: "Caption styles", body: "Let people pick font, size, colour and position for captions, saved as a reusable style." },
    duplicate: false,
  },
  {
    kind: "same-topic",
    a: { title: "Render status in Slack", body: "Post a message to a Slack channel when a render starts, fails or completes." },
    b: { title: "Slack command to start renders", body: "Type /render in Slack to queue a render of a project and get the link back." },
    duplicate: false,
  },
];
