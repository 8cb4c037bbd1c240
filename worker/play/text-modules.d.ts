// Modules that wrangler's Text rule bundles as strings (see [[rules]] in wrangler.toml).
declare module "gsap-3.14.2/dist/gsap.min.js" {
  const text: string;
  export default text;
}
declare module "*/page/studio-runtime.js" {
  const text: string;
  export default text;
}
declare module "*/page/studio-player.js" {
  const text: string;
  export default text;
}
