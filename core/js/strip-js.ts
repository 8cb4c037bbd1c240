// Lint rules look for API names in scripts. Comments must never count, and string contents only count where a
// rule wants them (timeline keys are strings; `"Math.random"` in a caption is not a call). acorn's tokenizer finds
// comments and literals (regex versus division, nested templates); here they are blanked while every offset is
// kept, so a match position still points into the original source.
import { Parser, tokTypes, type Token } from "acorn";
import { attempt } from "../parse-text.ts";

// A lexer only: a regex whose pattern does not compile (the syntax rule reports it) is still a regex literal to
// blank, so acorn's pattern and flag checks are switched off through its plugin API.
const Lexer = Parser.extend(
  (Base) =>
    class extends (Base as unknown as new (...args: unknown[]) => object) {
      validateRegExpFlags(): void {}
      validateRegExpPattern(): void {}
    } as unknown as typeof Parser,
);

export interface StrippedScript {
  /** Comments replaced by spaces; strings kept. */
  code: string;
  /** Comments and the contents of strings, templates and regex literals replaced by spaces. */
  bare: string;
  /** The lexical error blanking stopped at (unterminated string, bad regex), or null when it read the whole script. */
  lexProblem: string | null;
}

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
  const tokens = Lexer.tokenizer(source, {
    ecmaVersion: "latest",
    allowHashBang: true,
    onComment: (_block, _text, start, end) => blank(start, end, true),
  });
  // A lexical error ends the blanking: the lint's script-syntax rule reports it; what follows the error is left as
  // written, so other rules still see the code there.
  const lexed = attempt(() => {
    for (const token of tokens as Iterable<Token>) blankLiteral(source, token, blank);
  });
  return { code: code.join(""), bare: bare.join(""), lexProblem: lexed.ok ? null : lexed.problem };
}

function blankLiteral(source: string, token: Token, blank: (from: number, to: number, both: boolean) => void): void {
  if (token.type === tokTypes.string) blank(token.start + 1, token.end - 1, false);
  // A template's text between its backquotes and `${ }` parts (the expressions inside stay code).
  else if (token.type === tokTypes.template || token.type === tokTypes.invalidTemplate) blank(token.start, token.end, false);
  // The pattern between the first slash and the last (flags never contain one).
  else if (token.type === tokTypes.regexp) blank(token.start + 1, source.lastIndexOf("/", token.end - 1), false);
}
