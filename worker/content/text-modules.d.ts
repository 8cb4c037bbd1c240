// Modules that wrangler's Text rule bundles as strings (see [[rules]] in wrangler.toml).
declare module "*/page-runtime/dist/studio-runtime.js" {
  const text: string;
  export default text;
}
declare module "*/page-runtime/dist/studio-player.js" {
  const text: string;
  export default text;
}
