// Types for the css-tree entry points the project imports: they need none of css-tree's lexer data (whose main
// entry reads JSON through node:module), so they bundle for the Worker and the browser.
declare module "css-tree/parser" {
  const parse: typeof import("css-tree").parse;
  export default parse;
}
declare module "css-tree/walker" {
  const walk: typeof import("css-tree").walk;
  export default walk;
}
