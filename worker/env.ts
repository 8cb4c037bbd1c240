// Bindings and configuration of the Studio Worker (see wrangler.toml). What each binding, variable and secret means,
// its default and its limits are in the schema, worker/config/settings.ts (docs/configuration.md is generated from
// it). Settings are read only through configOf(env) (worker/config/config-of.ts), never from env directly: it
// parses them once and a bad value is an error naming it, never a silent default.
import type { BindingName, FormerName, SettingName } from "./config/settings.ts";
import type { DurableObjectClass } from "./durable-object-classes.ts";

/**
 * The bindings, as wrangler provides them (BINDINGS in worker/config/settings.ts says which are required). The Durable
 * Object namespaces are typed by the classes' own modules through durable-object-classes.ts, not by importing them.
 */
export interface EnvBindings {
  DB: D1Database;
  FILES: R2Bucket;
  PROJECT_ROOM: DurableObjectNamespace<DurableObjectClass<"ProjectRoom">>;
  WEBHOOK_OUTBOX: DurableObjectNamespace<DurableObjectClass<"WebhookOutbox">>;
  JOB_BOARD: DurableObjectNamespace<DurableObjectClass<"JobBoard">>;
  STORAGE_LEDGER: DurableObjectNamespace<DurableObjectClass<"StorageLedger">>;
  OAUTH_KV: KVNamespace;
  ASSETS?: Fetcher;
  CF_VERSION_METADATA?: WorkerVersionMetadata;
  RENDER_NODE_CONTAINER?: DurableObjectNamespace<DurableObjectClass<"RenderNodeContainer">>;
}

/** Variables and secrets as they arrive: text, unparsed. Read them through configOf. */
export type EnvSettings = { readonly [K in SettingName | FormerName]?: string };

export type Env = EnvBindings & EnvSettings;

/** Compiles only while the schema declares exactly these bindings, so neither can gain one the other lacks. */
type Exactly<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Holds<T extends true> = T;
export type BindingsDeclared = Holds<Exactly<keyof EnvBindings, BindingName>>;
