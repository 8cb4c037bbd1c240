// The path parameters routes declare, shared where many routes name the same one (`request: () => ({ params:
// slugParams() })`). route.ts checks them before the handler runs and types `input.param`; the OpenAPI document
// shows their schemas. Plain strings here: a project slug or a key id that names nothing is the handler's 404,
// found where it is looked up. A parameter with a form of its own (an idea's id) declares its schema with it.
import * as z from "zod";
import { lazy } from "../../core/lazy.ts";

/** `:slug`: a project's (or a research record's) slug. */
export const slugParams = lazy(() => z.object({ slug: z.string() }));

/** `:id`: the id of what the path names (a render, a job, a key, an app). */
export const idParams = lazy(() => z.object({ id: z.string() }));

/** `:filename`: a rendered file's name (the handler checks its form). */
export const filenameParams = lazy(() => z.object({ filename: z.string() }));
