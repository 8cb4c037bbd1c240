// Lint rules look for API names in scripts. Comments must never count, and string contents only count where a
// rule wants them (timeline keys are strings; `"Math.random"` in a caption is not a call). This scanner blanks
// them out while keeping every offset, so a match position still points into the original source.

export interface StrippedScript {
  /** Comments replaced by spaces; strings kept. */
  code: string;
  /** Comments and the contents of strings, templates and regex literals replaced by spaces. */
  bare: string;
}

// After these characters a `/` starts a regex literal rather than a division.
const REGEX_PRECEDERS = new Set(["", "(", ",", "=", ":", "[", "!", "&", "|", "?", "{", "}", ";", "+", "-", "*", "%", "<", ">", "~", "^"]);
const REGEX_KEYWORDS = /(?:^|[^\w$])(?:return|typeof|case|do|else|in|of|void|yield|await|delete|throw|new)$/;

/** Blank comments (and, in `bare`, literal contents) of a JavaScript source. */
export function stripJs(source: string): StrippedScript {
  const code = source.split("");
  const bare = source.split("");
  const blank = (from: number, to: number, both: boolean): void => {
    for (let i = from; i < to && i < source.length; i++) {
      if (source[i] === "\n") continue;
      bare[i] = " ";
      if (both) code[i] = " ";
    }
  };
  // Template literals nest through `${ ... }`: the stack holds the brace depth at which each template resumes.
  const templateStack: number[] = [];
  let braceDepth = 0;
  let lastSignificant = "";
  let i = 0;
  const scanTemplate = (from: number): number => {
    let j = from;
    while (j < source.length) {
      const ch = source[j];
      if (ch === "\\") j += 2;
      else if (ch === "`") return j + 1;
      else if (ch === "$" && source[j + 1] === "{") {
        templateStack.push(braceDepth);
        braceDepth++;
        return j + 2;
      } else j++;
    }
    return j;
  };
  while (i < source.length) {
    const ch = source[i] ?? "";
    const next = source[i + 1] ?? "";
    if (ch === "/" && next === "/") {
      const end = source.indexOf("\n", i);
      const stop = end === -1 ? source.length : end;
      blank(i, stop, true);
      i = stop;
    } else if (ch === "/" && next === "*") {
      const end = source.indexOf("*/", i + 2);
      const stop = end === -1 ? source.length : end + 2;
      blank(i, stop, true);
      i = stop;
    } else if (ch === '"' || ch === "'") {
      let j = i + 1;
      while (j < source.length && source[j] !== ch && source[j] !== "\n") j += source[j] === "\\" ? 2 : 1;
      blank(i + 1, j, false);
      i = j + 1;
      lastSignificant = ch;
    } else if (ch === "`") {
      const end = scanTemplate(i + 1);
      blank(i + 1, end - 1, false);
      i = end;
      lastSignificant = "`";
    } else if (ch === "/" && (REGEX_PRECEDERS.has(lastSignificant) || REGEX_KEYWORDS.test(source.slice(Math.max(0, i - 8), i).trimEnd()))) {
      let j = i + 1;
      let inClass = false;
      while (j < source.length && source[j] !== "\n") {
        const c = source[j];
        if (c === "\\") j++;
        else if (c === "[") inClass = true;
        else if (c === "]") inClass = false;
        else if (c === "/" && !inClass) break;
        j++;
      }
      blank(i + 1, j, false);
      i = j + 1;
      lastSignificant = "/re";
    } else {
      if (ch === "{") braceDepth++;
      else if (ch === "}") {
        braceDepth--;
        if (templateStack.length > 0 && templateStack[templateStack.length - 1] === braceDepth) {
          templateStack.pop();
          const end = scanTemplate(i + 1);
          blank(i + 1, end - 1, false);
          i = end;
          lastSignificant = "`";
          continue;
        }
      }
      if (!/\s/.test(ch)) lastSignificant = /[\w$]/.test(ch) ? "w" : ch;
      i++;
    }
  }
  return { code: code.join(""), bare: bare.join("") };
}
