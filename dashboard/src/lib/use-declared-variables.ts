// The variables a composition declares (data-composition-variables), read from the file as stored with the same
// reader the API's strict check uses (core/composition/read-variable-declarations.ts). The reader and its HTML parser
// load on first use: only the batch view needs them. Read again when the file changes (its size or time in `files`).
import { useEffect, useState } from "preact/hooks";
import type { VariableDeclaration } from "../../../core/composition/read-variable-declarations.ts";
import { errorText, readText } from "./api.ts";
import type { FileEntry } from "./types.ts";

export interface Declared {
  /** Null while reading. */
  declarations: VariableDeclaration[] | null;
  error: string | null;
}

export function useDeclaredVariables(slug: string, composition: string, files: FileEntry[]): Declared {
  const [state, setState] = useState<Declared>({ declarations: null, error: null });
  const entry = files.find((f) => f.path === composition);
  const stamp = entry ? `${entry.size}:${entry.mtime ?? ""}` : "absent";
  useEffect(() => {
    let live = true;
    setState({ declarations: null, error: null });
    void Promise.all([readText(slug, composition), import("../../../core/composition/read-variable-declarations.ts")])
      .then(([html, reader]) => live && setState({ declarations: reader.readVariableDeclarations(html), error: null }))
      .catch((err: unknown) => live && setState({ declarations: null, error: `could not read the variables ${composition} declares: ${errorText(err)}` }));
    return () => {
      live = false;
    };
  }, [slug, composition, stamp]);
  return state;
}
