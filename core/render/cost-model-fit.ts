// Written by `node bench/cost-model.ts fit` (do not edit by hand): the cost model's coefficients (cost-model.ts),
// fitted by least squares to 23 renders of bench/lib/cost-cases.ts. Seconds per unit of each term.
import type { CostCoefficients } from "./cost-model.ts";

export interface CostModelFit {
  version: string;
  fittedOn: string;
  machine: string;
  coefficients: CostCoefficients;
}

export const COST_MODEL_FIT: CostModelFit = {
  "version": "fitted-2026-11-29",
  "fittedOn": "2026-11-29",
  "machine": "vm, 2 cores (AMD EPYC), load 1.5 to 3.4",
  "coefficients": {
    "fixed": 0.8875,
    "frame": 0.005617,
    "megapixelFrame": 0.02342,
    "webmMegapixelFrame": 0.008433,
    "movMegapixelFrame": 0.0007237,
    "gifMegapixelFrame": 0.1338,
    "pngSequenceMegapixelFrame": 0.1088,
    "highMegapixelFrame": 0.01001,
    "draftMegapixelFrame": -0.005722,
    "videoClipFrame": 0.01409,
    "audioClip": 0.04161,
    "shaderFrame": 0.02277
  }
};
