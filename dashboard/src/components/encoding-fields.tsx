// The encoder fields that apply to the chosen format only: crf or videoBitrate for mp4/webm (one at a time: the API
// refuses both), gifLoop for a GIF, and a note on the formats that keep the page's transparency. Ranges come from
// core/render/render-options.ts; the API judges the values and its message is shown by the form's owner.
import type { JSX } from "preact";
import { SelectField } from "./select-field.tsx";
import { crfMax, formatKeepsAlpha, GIF_LOOP_MAX, takesGifLoop, takesRate, VIDEO_BITRATE_RANGE, type FormOptions, type RateControl } from "../lib/render-request.ts";

const RATE_LABELS: Record<RateControl, string> = { preset: "the quality preset", crf: "crf", bitrate: "video bitrate" };

interface Props {
  idPrefix: string;
  options: FormOptions;
  set: <K extends keyof FormOptions>(key: K, value: FormOptions[K]) => void;
}

export function EncodingFields({ idPrefix, options, set }: Props) {
  const id = (name: string) => `${idPrefix}-${name}`;
  const max = crfMax(options.format);
  const fields: JSX.Element[] = [];
  if (takesRate(options.format)) {
    fields.push(<SelectField key="rate" id={id("rate")} label="Rate control" value={options.rate} values={Object.keys(RATE_LABELS) as RateControl[]} labels={RATE_LABELS} onChange={(v) => set("rate", v)} />);
  }
  if (takesRate(options.format) && options.rate === "crf") {
    fields.push(
      <div class="field" key="crf">
        <label for={id("crf")}>crf</label>
        <input id={id("crf")} type="number" inputMode="numeric" min={0} max={max} step={1} placeholder={`0 to ${max}`} aria-describedby={id("crf-hint")} value={options.crf} onInput={(e) => set("crf", e.currentTarget.value)} />
        <small id={id("crf-hint")} class="muted">
          0 to {max} for {options.format}; lower is better and larger
        </small>
      </div>,
    );
  }
  if (takesRate(options.format) && options.rate === "bitrate") {
    fields.push(
      <div class="field" key="bitrate">
        <label for={id("bitrate")}>Video bitrate</label>
        <input id={id("bitrate")} placeholder="10M" aria-describedby={id("bitrate-hint")} value={options.videoBitrate} onInput={(e) => set("videoBitrate", e.currentTarget.value)} />
        <small id={id("bitrate-hint")} class="muted">
          bits per second such as 10M or 2500k, {VIDEO_BITRATE_RANGE.minText} to {VIDEO_BITRATE_RANGE.maxText}
        </small>
      </div>,
    );
  }
  if (takesGifLoop(options.format)) {
    fields.push(
      <div class="field" key="gif-loop">
        <label for={id("gif-loop")}>GIF loops</label>
        <input id={id("gif-loop")} type="number" inputMode="numeric" min={0} max={GIF_LOOP_MAX} step={1} placeholder="0 (forever)" aria-describedby={id("gif-loop-hint")} value={options.gifLoop} onInput={(e) => set("gifLoop", e.currentTarget.value)} />
        <small id={id("gif-loop-hint")} class="muted">
          0 loops forever; 1 to {GIF_LOOP_MAX} repeats that many more times
        </small>
      </div>,
    );
  }
  if (formatKeepsAlpha(options.format)) {
    fields.push(
      <p class="form-note muted" key="alpha" data-testid={id("alpha-note")}>
        {options.format === "png-sequence" ? "A png-sequence is a .zip of PNG frames; it keeps" : `${options.format} keeps`} the page's transparency where the
        composition paints nothing.
      </p>,
    );
  }
  return <>{fields}</>;
}
