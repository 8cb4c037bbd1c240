// What the Worker's bundle gets for `ajv` and `ajv-formats` (wrangler.toml [alias]). The MCP SDK's server imports
// its Ajv validator statically, but only constructs it when no other validator is given, and mcp-server.ts gives
// @cfworker/json-schema's (Ajv compiles schemas with `new Function`, which Workers refuse, and weighs about 35 KiB
// gzip of a 500 KiB budget). Constructing it is a bug, so it throws rather than validating nothing.
export default class AjvLeftOut {
  constructor() {
    throw new Error("ajv is left out of the Worker's bundle (wrangler.toml [alias]): give the MCP SDK a jsonSchemaValidator");
  }
}
