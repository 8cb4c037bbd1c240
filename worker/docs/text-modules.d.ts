// The docs' Markdown files, bundled as strings by wrangler's Text rule (see [[rules]] in wrangler.toml).
declare module "*.md" {
  const text: string;
  export default text;
}
