// Written by `node bench/cost-model.ts fit` (do not edit by hand): the cost model's coefficients (cost-model.ts),
// fitted by least squares to 27 renders of bench/lib/cost-cases.ts. Seconds per unit of each term.
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
  "version": "fitted-2026-11-29",
  "fittedOn": "2026-11-29",
  "machine": "vm, 2 cores (AMD EPYC), load 2.1 to 4.2",
  "browsers": 2,
  "coefficients": {
    "fixed": 0.7695,
    "frame": 0.00556,
    "megapixelFrame": 0.02401,
    "pathFrame": 0,
    "pathMegapixelFrame": 0,
    "webmMegapixelFrame": 0.009328,
    "movMegapixelFrame": 0.0003424,
    "gifMegapixelFrame": 0.1185,
    "pngSequenceMegapixelFrame": 0.1009,
    "highMegapixelFrame": 0.01453,
    "draftMegapixelFrame": -0.004756,
    "videoClipFrame": 0.005365,
    "audioClip": 0,
    "shaderFrame": 0.02666,
    "alphaMegapixelFrame": 0,
    "filterMegapixelFrame": 0
  }
};
