// A name can be percent-encoded any number of times ("%2e" → "%252e" → "%25252e"), and any code that decodes it once
// more sees the next layer. Checks for "..", backslashes and the like look at every layer, not just the first.
import { decodeComponent } from "../parse-text.ts";

const MAX_LAYERS = 8;

/** The text and each further percent-decoding of it, until decoding changes nothing or the escapes break. */
export function percentLayers(raw: string): string[] {
  const layers = [raw];
  let current = raw;
  for (let i = 0; i < MAX_LAYERS; i++) {
    const decoded = decodeComponent(current);
    if (!decoded.ok) break; // a literal '%' in a name is fine: no further layer
    const next = decoded.value;
    if (next === current) break;
    layers.push(next);
    current = next;
  }
  return layers;
}
