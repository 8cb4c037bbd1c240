// The families a composition may name without shipping its own @font-face: each maps to a web font bundled from
// an @fontsource package (OFL/Apache, see README.md), as HyperFrames 0.8.170 maps them, so a composition renders
// with the same letters in the studio, offline, as under `hyperframes render`. Pure data and lookups.

export interface BundledFamily {
  /** The family's own name, as Google Fonts spells it. */
  name: string;
  /** The @fontsource package the woff2 files come from. */
  packageName: string;
  /**
   * The weights HyperFrames embeds (its offline set). The render node serves every weight and italic the package
   * ships; the /play page asks Google for these.
   */
  weights: readonly number[];
}

/** Keyed by the lower-case family name; the package name is the key with spaces as dashes. */
const BUNDLED: Record<string, readonly number[]> = {
  "inter": [400, 700, 900],
  "montserrat": [400, 700, 900],
  "outfit": [400, 700, 900],
  "nunito": [400, 700, 900],
  "oswald": [400, 700],
  "league gothic": [400],
  "archivo black": [400],
  "space mono": [400, 700],
  "ibm plex mono": [400, 700],
  "jetbrains mono": [400, 700],
  "eb garamond": [400, 700],
  "playfair display": [400, 700, 900],
  "source code pro": [400, 700],
  "roboto": [400, 700, 900],
  "open sans": [400, 700],
  "lato": [400, 700, 900],
  "poppins": [400, 700, 900],
};

const DISPLAY_NAMES: Record<string, string> = {
  "ibm plex mono": "IBM Plex Mono",
  "jetbrains mono": "JetBrains Mono",
  "eb garamond": "EB Garamond",
};

/** Well-known system and commercial families, drawn with the nearest bundled family (HyperFrames' choices). */
const ALIASES: Record<string, string> = {
  "helvetica neue": "inter", "helvetica": "inter", "arial": "inter", "helvetica bold": "inter",
  "futura": "montserrat", "din alternate": "montserrat", "arial black": "montserrat",
  "bebas neue": "league gothic",
  "courier new": "jetbrains mono", "courier": "jetbrains mono",
  "garamond": "eb garamond",
  "segoe ui": "roboto",
  // macOS, Windows and Linux sans-serif system families.
  "sf pro": "inter", "sf pro display": "inter", "sf pro text": "inter", "sf pro rounded": "inter", "avenir": "inter",
  "avenir next": "inter", "lucida grande": "inter", "geneva": "inter", "optima": "inter", "verdana": "inter",
  "tahoma": "inter", "trebuchet ms": "inter", "calibri": "inter", "candara": "inter", "corbel": "inter",
  "lucida sans": "inter", "lucida sans unicode": "inter", "noto sans": "inter", "dejavu sans": "inter",
  "liberation sans": "inter",
  // Monospace system families.
  "sf mono": "jetbrains mono", "menlo": "jetbrains mono", "monaco": "jetbrains mono", "consolas": "jetbrains mono",
  "lucida console": "jetbrains mono", "lucida sans typewriter": "jetbrains mono", "andale mono": "jetbrains mono",
  "dejavu sans mono": "jetbrains mono", "liberation mono": "jetbrains mono",
  // Serif system families.
  "georgia": "eb garamond", "palatino": "eb garamond", "palatino linotype": "eb garamond", "book antiqua": "eb garamond",
  "cambria": "eb garamond", "times": "eb garamond", "times new roman": "eb garamond", "dejavu serif": "eb garamond",
  "liberation serif": "eb garamond",
};

/**
 * CSS generic families and system keywords: never a missing font. A declaration whose first family is one of these
 * is drawn with GENERIC_PRIMARY in front (HyperFrames does the same), so it does not depend on the machine's fonts.
 */
export const GENERIC_FAMILIES: ReadonlySet<string> = new Set([
  "serif", "sans-serif", "monospace", "cursive", "fantasy", "system-ui", "ui-serif", "ui-sans-serif", "ui-monospace",
  "ui-rounded", "math", "emoji", "fangsong", "-apple-system", "blinkmacsystemfont",
]);

/** CSS-wide keywords that may stand in a font-family value. */
export const CSS_WIDE_KEYWORDS: ReadonlySet<string> = new Set(["inherit", "initial", "unset", "revert", "revert-layer"]);

export const GENERIC_PRIMARY = "Inter";

function bundled(key: string): BundledFamily {
  const weights = BUNDLED[key]!;
  const name = DISPLAY_NAMES[key] ?? key.replace(/\b[a-z]/g, (letter) => letter.toUpperCase());
  return { name, packageName: `@fontsource/${key.replace(/ /g, "-")}`, weights };
}

/** Every bundled family. */
export const BUNDLED_FAMILIES: readonly BundledFamily[] = Object.keys(BUNDLED).map(bundled);

/** Every family name (lower case) the studio draws with a bundled font: the bundled families and their aliases. */
export const MAPPED_FAMILY_NAMES: readonly string[] = [...Object.keys(BUNDLED), ...Object.keys(ALIASES)];

/** Lower case, unquoted, trimmed. */
export function normalizeFamily(name: string): string {
  return name.trim().replace(/^['"]|['"]$/g, "").trim().replace(/\s+/g, " ").toLowerCase();
}

/** The bundled family that draws `family` (its own name or an alias), or null. */
export function bundledFamilyFor(family: string): BundledFamily | null {
  const key = normalizeFamily(family);
  const target = BUNDLED[key] ? key : ALIASES[key];
  return target ? bundled(target) : null;
}

export function isGenericFamily(family: string): boolean {
  const key = normalizeFamily(family);
  return GENERIC_FAMILIES.has(key) || CSS_WIDE_KEYWORDS.has(key);
}
