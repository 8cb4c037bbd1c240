// The render plan's effects of a clip: the data-fx-chain effects the mix renders (core/composition/audio-fx-chain.ts).
// What it leaves out was already said by the page (feature-unsupported). Pure.
import { parseFxChain } from "../../../core/composition/audio-fx-chain.ts";
import type { MediaClip } from "../../../page-runtime/api.ts";
import type { RenderPlan } from "../../../core/protocol/render-plan.ts";

export function planEffects(clip: MediaClip): Pick<RenderPlan["audio"][number], "effects"> {
  const effects = clip.fxChain ? parseFxChain(clip.fxChain).effects : [];
  return effects.length > 0 ? { effects } : {};
}
