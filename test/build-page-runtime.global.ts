// Global setup of both test projects: builds the page runtime's scripts (page-runtime/build.ts) before any test
// runs. The Worker bundles them as text modules (the workerd project too) and the render node serves them.
import { buildPageRuntime } from "../page-runtime/build.ts";

export default async function setup(): Promise<void> {
  await buildPageRuntime();
}
