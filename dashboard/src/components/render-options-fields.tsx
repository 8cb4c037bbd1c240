// The render options a person picks, for one render (render-panel.tsx) or for every row of a batch
// (batch-panel.tsx): quality, format, size, fps, composition, strict, then the encoder fields of the chosen format.
import { FORMATS, QUALITIES, RESOLUTION_NAMES, type FormOptions } from "../lib/render-request.ts";
import type { Format } from "../../../core/render/render-options.ts";
import { EncodingFields } from "./encoding-fields.tsx";

interface Props {
  /** Keeps the ids (and so the labels) of two forms on one page apart. */
  idPrefix: string;
  options: FormOptions;
  set: <K extends keyof FormOptions>(key: K, value: FormOptions[K]) => void;
  compositions: string[];
}

export function RenderOptionsFields({ idPrefix, options, set, compositions }: Props) {
  const id = (name: string) => `${idPrefix}-${name}`;
  return (
    <>
      <div class="field">
        <label for={id("quality")}>Quality</label>
        <select id={id("quality")} value={options.quality} onChange={(e) => set("quality", e.currentTarget.value)}>
          {QUALITIES.map((q) => (
            <option key={q} value={q}>
              {q}
            </option>
          ))}
        </select>
      </div>
      <div class="field">
        <label for={id("format")}>Format</label>
        <select id={id("format")} value={options.format} onChange={(e) => set("format", e.currentTarget.value as Format)}>
          {FORMATS.map((f) => (
            <option key={f} value={f}>
              {f}
            </option>
          ))}
        </select>
      </div>
      <div class="field">
        <label for={id("resolution")}>Resolution</label>
        <select id={id("resolution")} value={options.resolution} onChange={(e) => set("resolution", e.currentTarget.value)}>
          <option value="">as composed</option>
          {RESOLUTION_NAMES.map((r) => (
            <option key={r} value={r}>
              {r}
            </option>
          ))}
        </select>
      </div>
      <div class="field">
        <label for={id("fps")}>Frames per second</label>
        <input
          id={id("fps")}
          inputMode="numeric"
          placeholder="default"
          pattern="\d+(/\d+)?"
          title="An integer such as 30, or a ratio such as 30000/1001"
          value={options.fps}
          onInput={(e) => set("fps", e.currentTarget.value)}
        />
      </div>
      <div class="field">
        <label for={id("composition")}>Composition</label>
        <select id={id("composition")} value={options.composition} onChange={(e) => set("composition", e.currentTarget.value)}>
          {(compositions.length ? compositions : ["index.html"]).map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </select>
      </div>
      <EncodingFields idPrefix={idPrefix} options={options} set={set} />
      <label class="checkbox">
        <input type="checkbox" checked={options.strict} onChange={(e) => set("strict", e.currentTarget.checked)} /> strict (fail on lint errors)
      </label>
    </>
  );
}
