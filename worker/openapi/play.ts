// Pages and redirects on the API origin that lead to the content origin (the player, content links).
import * as z from "zod";
import { pathParams, type Operation } from "./operation.ts";

const toContent = { description: "a redirect to the content origin", headers: { Location: "the content origin URL" } };

export const playOperations: Operation[] = [
  {
    method: "get", path: "/play/{slug}", operationId: "playProject", summary: "The player for a signed-in dashboard user: a redirect to a one-hour link on the content origin", tag: "play", access: "user", params: pathParams("slug"),
    responses: { 302: toContent, 401: { description: "a page asking to sign in", body: { media: "text/html", schema: z.string() } }, 404: { description: "a page: no such project", body: { media: "text/html", schema: z.string() } } },
  },
  { method: "get", path: "/play/_studio/{path}", operationId: "playScriptRedirect", summary: "Old player script paths: a redirect to the content origin", tag: "play", access: "public", params: pathParams("path"), responses: { 302: toContent } },
  { method: "get", path: "/c/{path}", operationId: "contentLinkRedirect", summary: "A content link pasted onto the API origin: a redirect to the content origin", tag: "play", access: "public", params: pathParams("path"), responses: { 302: toContent } },
  { method: "get", path: "/_studio/{path}", operationId: "studioScriptRedirect", summary: "Player scripts: a redirect to the content origin", tag: "play", access: "public", params: pathParams("path"), responses: { 302: toContent } },
];
