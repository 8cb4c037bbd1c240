// The shader names HyperFrames' HyperShader accepts (@hyperframes/shader-transitions' registry), in its order: the
// render node draws each (render-node/src/capture/shader-transitions/shader-blends.ts, whose table a test holds to this
// list); the page script reports the list as HyperShader.SHADER_NAMES. Pure data.
export const SHADER_TRANSITION_NAMES = [
  "domain-warp", "ridged-burn", "whip-pan", "sdf-iris", "ripple-waves", "gravitational-lens", "cinematic-zoom",
  "chromatic-split", "glitch", "swirl-vortex", "thermal-distortion", "flash-through-white", "cross-warp-morph",
  "light-leak",
] as const;
