// The one contract between the Worker and render nodes: job kinds, route schemas, progress events, the plan.
export * from "./finding.ts";
export * from "./finding-schema.ts";
export * from "./job-kinds.ts";
export * from "./node-routes.ts";
export * from "./progress.ts";
export * from "./render-plan.ts";
