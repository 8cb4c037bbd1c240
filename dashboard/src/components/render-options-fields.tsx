// The render options a person picks, for one render (render-panel.tsx) or for every row of a batch
// (batch-panel.tsx): quality, format, size, fps, composition, strict, then the encoder fields of the chosen format.
import { FORMATS, QUALITIES, RESOLUTION_NAMES, type FormOptions } from "../lib/render-request.ts";
import { EncodingFields } from "./encoding-fields.tsx";
import { SelectField } from "./select-field.tsx";

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
      <SelectField id={id("quality")} label="Quality" value={options.quality} values={QUALITIES} onChange={(v) => set("quality", v)} />
      <SelectField id={id("format")} label="Format" value={options.format} values={FORMATS} onChange={(v) => set("format", v)} />
      <SelectField id={id("resolution")} label="Resolution" value={options.resolution} values={["", ...RESOLUTION_NAMES]} labels={{ "": "as composed" }} onChange={(v) => set("resolution", v)} />
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
      <SelectField id={id("composition")} label="Composition" value={options.composition} values={compositions.length ? compositions : ["index.html"]} onChange={(v) => set("composition", v)} />
      <EncodingFields idPrefix={idPrefix} options={options} set={set} />
      <label class="checkbox">
        <input type="checkbox" checked={options.strict} onChange={(e) => set("strict", e.currentTarget.checked)} /> strict (fail on lint errors)
      </label>
    </>
  );
}
