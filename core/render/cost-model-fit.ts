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
  "machine": "vm, 2 cores (AMD EPYC), load 8.8 to 17.8",
  "coefficients": {
    "fixed": 6.215,
    "frame": -0.03481,
    "megapixelFrame": 0.09468,
    "webmMegapixelFrame": 0.1053,
    "movMegapixelFrame": -0.008848,
    "gifMegapixelFrame": 1.293,
    "pngSequenceMegapixelFrame": 0.4875,
    "highMegapixelFrame": 0.02542,
    "draftMegapixelFrame": -0.05235,
    "videoClipFrame": 0.03931,
    "audioClip": 3.671,
    "shaderFrame": 0.271
  }
};
