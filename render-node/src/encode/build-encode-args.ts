// ffmpeg arguments as data: the per-quality encoder table and the argument lists built from it. Pure.
import { bitrateBits } from "../../../core/render/render-options.ts";
import type { Format, Quality } from "../../../core/render/render-options.ts";

/**
 * Encoder settings per format and quality. Chunks are encoded in parallel (one ffmpeg per browser), so the
 * presets lean fast: on 2 cores the encoder shares the CPU with Chromium.
 *
 * | format | draft                         | standard                      | high                          |
 * |--------|-------------------------------|-------------------------------|-------------------------------|
 * | mp4    | x264 ultrafast crf 28, aac 128k | x264 veryfast crf 20, aac 192k | x264 medium crf 16, aac 256k |
 * | webm   | vp9 realtime cpu 8 crf 40, opus 96k | vp9 good cpu 5 crf 32, opus 128k | vp9 good cpu 2 crf 24, opus 192k |
 * | mov    | prores_aw proxy (0), pcm s16  | prores_aw standard (2), pcm s16 | prores_aw HQ (3), pcm s16    |
 * | gif    | 96 colours, bayer dither      | 256 colours, sierra2_4a dither | 256 colours, diff stats, floyd_steinberg |
 *
 * `jpegQuality` is the quality of the frames Chromium hands to ffmpeg.
 */
export interface EncoderSettings {
  jpegQuality: number;
  /** Pixel-format conversion applied to Chromium's JPEGs, or "" for none. */
  filter: string;
  video: string[];
  audio: string[];
  /** Container of the per-browser chunks, joined later with the concat demuxer and -c copy. */
  chunkExtension: string;
}

const BT709 = ["-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709"];
// JPEG frames are full-range BT.601; convert them to what players expect of HD video (BT.709, limited range), as
// HyperFrames does, to its bytes. HyperFrames goes JPEG → RGB (nearest chroma) → YUV in two swscale passes; one
// swscale pass from YUV to YUV with nearest chroma, accurate rounding and full chroma interpolation gives the same
// bytes (render-node/test/colour-conversion.test.ts, on Chromium's own JPEGs). The colorspace filter used before
// was ten times cheaper (1–2 ms of CPU per 1080p frame against about 15 ms) but rounds differently: on Chromium's
// JPEGs of dark colours it came out a level lighter than HyperFrames (Y +0.7 to +0.9 on average over the parity
// corpus' dark pages, #101828 as Y 36 where HyperFrames writes 35), a floor of about 1 MAD under every frame of
// bench/parity.ts that pushed the busiest frames past the goal.
const TO_BT709_420 =
  "pad=ceil(iw/2)*2:ceil(ih/2)*2," +
  "scale=in_color_matrix=bt601:in_range=pc:out_color_matrix=bt709:out_range=tv:flags=neighbor+accurate_rnd+full_chroma_int,format=yuv420p";
// ProRes (mov) carries BT.601 limited-range data, tagged so: ffmpeg's decoders (the npm build's and Debian's 5.1)
// convert ProRes to RGB as BT.601 whatever the tag says, so BT.709 data came out R +7.8, B -5.2 (#10b981 as
// 30,206,130) where HyperFrames' mov decodes exact. The tag is said three ways because each ffmpeg keeps a different
// one: setparams (the frames' own, which Debian's 5.1 encodes), the encoder options and the colr atom (which the
// npm build writes only under +write_colr, and which a -c copy join drops unless they are given again: the join
// says them over every chunk or segment, so a segment's own remux in render-segment.ts need not).
const BT601_FRAMES = "setparams=colorspace=smpte170m:color_primaries=bt709:color_trc=bt709:range=tv";
const TO_BT601_422_10 = `scale=in_color_matrix=bt601:in_range=pc:out_color_matrix=bt601:out_range=tv:flags=accurate_rnd+full_chroma_int,format=yuv422p10le,${BT601_FRAMES}`;
const BT601_TAGS = ["-colorspace", "smpte170m", "-color_primaries", "bt709", "-color_trc", "bt709", "-color_range", "tv"];
const WRITE_COLR = ["-movflags", "+write_colr"];

// One encoding thread for the fast presets. A render runs one chunk encoder per browser, so the cores are already
// shared out, and one thread encodes veryfast 1080p at ~40 frames/s, four times what a browser captures; x264's
// frame threads only add hand-offs: 180 reference frames cost 5.2 s of CPU with them and 4.6 s without (bench/README,
// "Encoder threads"). medium (high quality) keeps its frame threads: one thread would fall behind the capture.
function x264(preset: string, crf: number, threads: "one" | "frame-threads"): string[] {
  return ["-c:v", "libx264", "-preset", preset, "-crf", String(crf), ...(threads === "one" ? ["-threads", "1"] : []), ...BT709];
}

function vp9(deadline: string, cpuUsed: number, crf: number): string[] {
  return [
    "-c:v", "libvpx-vp9", "-deadline", deadline, "-cpu-used", String(cpuUsed), "-crf", String(crf), "-b:v", "0",
    "-row-mt", "1", ...BT709,
  ];
}

function prores(profile: number): string[] {
  return ["-c:v", "prores_aw", "-profile:v", String(profile), "-vendor", "apl0", ...BT601_TAGS, ...WRITE_COLR];
}

export const ENCODER_SETTINGS: Record<Format, Record<Quality, EncoderSettings>> = {
  mp4: {
    draft: { jpegQuality: 75, filter: TO_BT709_420, video: x264("ultrafast", 28, "one"), audio: ["-c:a", "aac", "-b:a", "128k"], chunkExtension: "mp4" },
    standard: { jpegQuality: 85, filter: TO_BT709_420, video: x264("veryfast", 20, "one"), audio: ["-c:a", "aac", "-b:a", "192k"], chunkExtension: "mp4" },
    high: { jpegQuality: 95, filter: TO_BT709_420, video: x264("medium", 16, "frame-threads"), audio: ["-c:a", "aac", "-b:a", "256k"], chunkExtension: "mp4" },
  },
  webm: {
    draft: { jpegQuality: 75, filter: TO_BT709_420, video: vp9("realtime", 8, 40), audio: ["-c:a", "libopus", "-b:a", "96k"], chunkExtension: "webm" },
    standard: { jpegQuality: 85, filter: TO_BT709_420, video: vp9("good", 5, 32), audio: ["-c:a", "libopus", "-b:a", "128k"], chunkExtension: "webm" },
    high: { jpegQuality: 95, filter: TO_BT709_420, video: vp9("good", 2, 24), audio: ["-c:a", "libopus", "-b:a", "192k"], chunkExtension: "webm" },
  },
  mov: {
    draft: { jpegQuality: 75, filter: TO_BT601_422_10, video: prores(0), audio: ["-c:a", "pcm_s16le"], chunkExtension: "mov" },
    standard: { jpegQuality: 85, filter: TO_BT601_422_10, video: prores(2), audio: ["-c:a", "pcm_s16le"], chunkExtension: "mov" },
    high: { jpegQuality: 95, filter: TO_BT601_422_10, video: prores(3), audio: ["-c:a", "pcm_s16le"], chunkExtension: "mov" },
  },
  // A png-sequence's chunk is a folder of Chromium's PNGs, copied untouched (image2, numbered by frame); zipped at the end.
  "png-sequence": {
    draft: { jpegQuality: 0, filter: "", video: ["-c:v", "copy"], audio: ["-c:a", "aac", "-b:a", "192k"], chunkExtension: "frames" },
    standard: { jpegQuality: 0, filter: "", video: ["-c:v", "copy"], audio: ["-c:a", "aac", "-b:a", "192k"], chunkExtension: "frames" },
    high: { jpegQuality: 0, filter: "", video: ["-c:v", "copy"], audio: ["-c:a", "aac", "-b:a", "192k"], chunkExtension: "frames" },
  },
  // GIF chunks keep Chromium's JPEGs untouched (-c copy into Matroska); the palette pass encodes once at the end.
  gif: {
    draft: { jpegQuality: 80, filter: "", video: ["-c:v", "copy"], audio: [], chunkExtension: "mkv" },
    standard: { jpegQuality: 90, filter: "", video: ["-c:v", "copy"], audio: [], chunkExtension: "mkv" },
    high: { jpegQuality: 95, filter: "", video: ["-c:v", "copy"], audio: [], chunkExtension: "mkv" },
  },
};

export const GIF_PALETTE: Record<Quality, { palettegen: string; paletteuse: string }> = {
  // 96 colours and a coarse Bayer pattern (stable from frame to frame, so LZW finds runs): the 4 s starter at 720 px
  // and 15 fps is 2.8 MB, where 128 colours and bayer_scale 3 made 3.5 MB (render-node/test/gif-defaults.test.ts).
  draft: { palettegen: "palettegen=max_colors=96", paletteuse: "paletteuse=dither=bayer:bayer_scale=5" },
  standard: { palettegen: "palettegen=max_colors=256", paletteuse: "paletteuse=dither=sierra2_4a" },
  high: { palettegen: "palettegen=max_colors=256:stats_mode=diff", paletteuse: "paletteuse=dither=floyd_steinberg:diff_mode=rectangle" },
};

// With alpha (a transparent composition, see detect-transparency.ts) Chromium hands over RGBA PNGs and the encoders
// keep the alpha plane, as HyperFrames does: VP9 yuva420p (no alt-ref frames, which libvpx cannot pair with alpha;
// alpha_mode=1 so players read it) and ProRes 4444 with alpha in place of ProRes 422.
const RGBA_TO = (matrix: "bt709" | "bt601", format: string) =>
  `scale=out_color_matrix=${matrix}:out_range=tv:flags=accurate_rnd+full_chroma_int,${format}`;
const VP9_ALPHA = ["-auto-alt-ref", "0", "-metadata:s:v:0", "alpha_mode=1"];
// prores_aw's 4444 (profile 4) keeps the alpha like HyperFrames' prores_ks, at a fifth of the time here (60 frames
// of 1280x720: 8.7 s against 43 s), and matches the opaque mov's encoder.
const PRORES_4444 = ["-c:v", "prores_aw", "-profile:v", "4", "-vendor", "apl0", "-pix_fmt", "yuva444p10le", ...BT601_TAGS, ...WRITE_COLR];

/** The filter and video arguments of a chunk whose frames keep their alpha (webm and mov only). */
export function alphaVideoSettings(format: "webm" | "mov", quality: Quality): { filter: string; video: string[] } {
  if (format === "mov") return { filter: RGBA_TO("bt601", `format=yuva444p10le,${BT601_FRAMES}`), video: PRORES_4444 };
  return { filter: RGBA_TO("bt709", "pad=ceil(iw/2)*2:ceil(ih/2)*2:color=black@0,format=yuva420p"), video: [...ENCODER_SETTINGS.webm[quality].video, ...VP9_ALPHA] };
}

/** Rate control the request names in place of the quality's crf: an explicit crf, or a target bitrate. */
export interface RateControl {
  crf?: number | undefined;
  videoBitrate?: string | undefined;
}

/** The video arguments with the request's crf or bitrate in place of the preset's crf (x264 and VP9 only). */
export function withRateControl(video: string[], rate: RateControl): string[] {
  const at = video.indexOf("-crf");
  if (at < 0 || (rate.crf === undefined && rate.videoBitrate === undefined)) return video;
  if (rate.crf !== undefined) return video.map((arg, i) => (i === at + 1 ? String(rate.crf) : arg));
  // A target bitrate replaces the crf (VP9's "-b:v 0" goes with it). Chunks are short, and a one-pass average over
  // a few seconds overshoots several times on its first keyframes: a rate buffer of two seconds holds it to the target.
  const out = [...video.slice(0, at), ...video.slice(at + 2)];
  const zeroRate = out.indexOf("-b:v");
  if (zeroRate >= 0) out.splice(zeroRate, 2);
  const bits = bitrateBits(rate.videoBitrate!);
  if (bits === null) throw new Error(`videoBitrate ${JSON.stringify(rate.videoBitrate)} is not a bitrate`);
  return [...out, "-b:v", String(bits), "-maxrate", String(bits), "-bufsize", String(2 * bits)];
}

export interface ChunkArgsInput {
  format: Format;
  quality: Quality;
  /** Exactly as ffmpeg reads it: "30" or "30000/1001". */
  fpsText: string;
  /** Keyframe interval in frames; each chunk also starts on a keyframe, and GOPs are closed. */
  gopFrames: number;
  /** Output size when it differs from the captured frames: scaled to fit and letterboxed on black. */
  fit?: { width: number; height: number } | undefined;
  output: string;
  /** PNG frames with alpha in place of JPEGs (webm and mov of a transparent composition; always a png-sequence). */
  alpha?: boolean | undefined;
  /** The request's crf or bitrate (mp4 and webm). */
  rate?: RateControl | undefined;
  /** The output's number of the range's first frame (0-based; a range render counts from its from): a png-sequence names its files by it. */
  firstFrame?: number | undefined;
}

/**
 * Whether a format's chunk encoder reads timestamped frames (an IVF stream, ivf-stream.ts) and fills held frames
 * itself: the formats that encode. GIF and png-sequence chunks copy Chromium's images, one file frame per image.
 */
export function chunkReadsTimestamps(format: Format): boolean {
  return format === "mp4" || format === "webm" || format === "mov";
}

/**
 * One range's encoder: frames on stdin to a chunk file with closed GOPs. Encoded formats read an IVF stream whose
 * timestamps count frames (a reused frame is not sent again: -vsync cfr repeats the picture before it); GIF chunks
 * read JPEGs one after another (image2pipe).
 */
export function buildChunkArgs(input: ChunkArgsInput): string[] {
  if (input.format === "png-sequence") return buildPngChunkArgs(input);
  const base = ENCODER_SETTINGS[input.format][input.quality];
  const alpha = input.alpha && (input.format === "webm" || input.format === "mov") ? alphaVideoSettings(input.format, input.quality) : null;
  const settings = { ...base, ...alpha, video: withRateControl(alpha?.video ?? base.video, input.rate ?? {}) };
  const gop = input.format === "mp4" || input.format === "webm"
    ? ["-g", String(input.gopFrames), "-keyint_min", String(input.gopFrames), "-flags", "+cgop"]
    : [];
  // A GIF's MJPEG chunk is 4:4:4 so an odd height (720x405 from 1920x1080) fits: 4:2:0 would need even sides.
  const gifChroma = input.format === "gif" ? ",format=yuvj444p" : "";
  const fit = input.fit
    ? `scale=${input.fit.width}:${input.fit.height}:force_original_aspect_ratio=decrease${gifChroma},pad=${input.fit.width}:${input.fit.height}:(ow-iw)/2:(oh-ih)/2:${alpha ? "black@0" : "black"}`
    : "";
  const filter = [fit, settings.filter].filter(Boolean).join(",");
  // A GIF chunk that must be letterboxed cannot stay a copy of Chromium's JPEGs: re-encode it as near-lossless MJPEG.
  const video = input.format === "gif" && fit ? ["-c:v", "mjpeg", "-q:v", "2"] : settings.video;
  const timed = chunkReadsTimestamps(input.format);
  return [
    "-hide_banner", "-loglevel", "error", "-nostdin", "-y",
    // No probing: ffmpeg would otherwise buffer 5 MB of frames (a whole chunk at 1080p) before encoding the first,
    // so the chunk was encoded after its frames were captured instead of while they were.
    "-probesize", "32", "-analyzeduration", "0",
    // The filters run on the encoder's thread too: the colour conversion is 1–2 ms a frame, less than a slice
    // hand-off between threads costs.
    "-filter_threads", "1",
    ...(timed ? ["-f", "ivf"] : ["-f", "image2pipe", "-framerate", input.fpsText]),
    "-c:v", alpha ? "png" : "mjpeg", "-i", "-",
    ...(filter ? ["-vf", filter] : []),
    ...video,
    ...gop,
    // Constant rate whatever the container (Matroska would otherwise keep the gaps): every frame of the range is in
    // the chunk, a held one as a copy of the decoded picture before it.
    ...(timed ? ["-vsync", "cfr"] : []),
    "-r", input.fpsText,
    "-an",
    // No random or versioned muxer fields (Matroska's segment UID, the writing-application tag): a segment's bytes
    // depend only on its frames and the settings, whichever node renders it (core/render/segment-plan.ts).
    "-fflags", "+bitexact",
    input.output,
  ];
}

/**
 * A png-sequence's range: Chromium's PNGs copied untouched into `output` (a folder) as frame_000001.png on, numbered
 * by the render's frame (HyperFrames' names); letterboxed on transparent when the output size differs.
 */
function buildPngChunkArgs(input: ChunkArgsInput): string[] {
  const fit = input.fit
    ? ["-vf", `scale=${input.fit.width}:${input.fit.height}:force_original_aspect_ratio=decrease,pad=${input.fit.width}:${input.fit.height}:(ow-iw)/2:(oh-ih)/2:black@0,format=rgba`, "-c:v", "png"]
    : ["-c:v", "copy"];
  return [
    "-hide_banner", "-loglevel", "error", "-nostdin", "-y",
    "-f", "image2pipe", "-framerate", input.fpsText, "-c:v", "png", "-i", "-",
    ...fit,
    "-f", "image2", "-start_number", String((input.firstFrame ?? 0) + 1),
    `${input.output}/frame_%06d.png`,
  ];
}

export interface JoinArgsInput {
  format: Exclude<Format, "gif" | "png-sequence">;
  quality: Quality;
  /** A concat-demuxer list naming the chunks in order. */
  listFile: string;
  /** The mixed audio track, already in the format's audio codec (mix-audio-track.ts), or null for a silent video. */
  audio: string | null;
  output: string;
  /** The chunks hold alpha: a WebM says so again (the concat demuxer does not carry the stream's alpha_mode). */
  alpha?: boolean | undefined;
}

/** Joins the chunks with the concat demuxer and adds the audio track: both copied, a pure remux. */
export function buildJoinArgs(input: JoinArgsInput): string[] {
  const audio = input.audio ? ["-i", input.audio, "-map", "0:v", "-map", "1:a", "-c:a", "copy"] : ["-map", "0:v", "-an"];
  const container = input.format === "mp4" ? ["-movflags", "+faststart"]
    : input.format === "mov" ? [...BT601_TAGS, ...WRITE_COLR]
    : input.format === "webm" && input.alpha ? ["-metadata:s:v:0", "alpha_mode=1"] : [];
  return [
    "-hide_banner", "-loglevel", "error", "-nostdin", "-y",
    "-f", "concat", "-safe", "0", "-i", input.listFile,
    ...audio,
    "-c:v", "copy",
    ...container,
    input.output,
  ];
}

export interface GifArgsInput {
  quality: Quality;
  listFile: string;
  palette: string;
  output: string;
  /** The request's gifLoop: 0 loops forever (the default), N repeats N more times. */
  loop?: number | undefined;
}

/** The two palette passes of a GIF: palettegen over the joined chunks, then paletteuse. No audio. */
export function buildGifArgs(input: GifArgsInput): { palette: string[]; encode: string[] } {
  const settings = GIF_PALETTE[input.quality];
  const head = ["-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-f", "concat", "-safe", "0", "-i", input.listFile];
  return {
    palette: [...head, "-vf", settings.palettegen, input.palette],
    encode: [...head, "-i", input.palette, "-lavfi", `[0:v][1:v]${settings.paletteuse}`, "-an", "-loop", String(input.loop ?? 0), input.output],
  };
}

/** The concat demuxer's list file for the chunks, paths quoted as the demuxer wants. */
export function buildConcatList(chunks: string[]): string {
  return chunks.map((path) => `file '${path.replaceAll("'", "'\\''")}'\n`).join("");
}
