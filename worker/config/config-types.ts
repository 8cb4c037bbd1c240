// The configuration's types alone, so the rules between settings (setting-rules.ts) and the parser that runs them
// (parse-config.ts) both name them without importing each other.
import type { SettingName, SETTINGS } from "./settings.ts";
import type { KindValue } from "./value-kinds.ts";

type Spec<K extends SettingName> = (typeof SETTINGS)[K];
/** A setting's value: always there when it has a default or is required, otherwise possibly undefined. */
type ValueOf<K extends SettingName> =
  | KindValue<Spec<K>["type"]>
  | (Spec<K> extends { default: string } | { required: true } ? never : undefined);

/** The Worker's configuration, parsed and frozen: one property per setting, named as the variable is. */
export type Config = { readonly [K in SettingName]: ValueOf<K> };

/** One thing wrong with the configuration: the setting (or binding) and what is wrong with it. */
export interface ConfigProblem {
  setting: string;
  problem: string;
}
