// Written by `node bench/cost-model.ts fit` (do not edit by hand): the cost model's coefficients (cost-model.ts),
// fitted by least squares to 36 renders of bench/lib/cost-cases.ts. Seconds per unit of each term.
import type { CostCoefficients } from "./cost-model.ts";

export interface CostModelFit {
  version: string;
  fittedOn: string;
  machine: string;
  /** The browsers a node captured with in the fit's renders (its cores): the model is of nodes like it. */
  browsers: number;
  coefficients: CostCoefficients;
}

export const COST_MODEL_FIT: CostModelFit = {
  "version": "fitted-2026-11-29T08:10",
  "fittedOn": "2026-11-29",
  "machine": "vm, 2 cores (AMD EPYC), load 0.9 to 5.0",
  "browsers": 2,
  "coefficients": {
    "fixed": 0.9548,
    "frame": 0.001182,
    "megapixelFrame": 0.005802,
    "pathFrame": 0,
    "pathMegapixelFrame": 0.0166,
    "webmMegapixelFrame": 0.01102,
    "movMegapixelFrame": -0.0009555,
    "gifMegapixelFrame": 0.1119,
    "pngSequenceMegapixelFrame": 0.09118,
    "highMegapixelFrame": 0.01114,
    "draftMegapixelFrame": -0.00231,
    "videoClipFrame": 0.008066,
    "audioClip": 0.1388,
    "shaderFrame": 0.03604,
    "alphaMegapixelFrame": 0.01491,
    "webmAlphaMegapixelFrame": 0.1428,
    "filterMegapixelFrame": 0.01389
  }
};
