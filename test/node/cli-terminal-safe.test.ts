// What the CLI prints of the studio's text (cli/lib/terminal-safe.ts): every class of terminal control taken out,
// whole sequences and not just their ESC, while ordinary text in any script, emoji, newlines and tabs stay; and
// cli/ has one way to the terminal (cli/lib/print.ts), so no server text can be printed around the sanitizer.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { terminalSafe } from "../../cli/lib/terminal-safe.ts";
import { createPrinter } from "../../cli/lib/print.ts";
import { createProgressBar } from "../../cli/lib/progress-bar.ts";
import { ROOT } from "../../scripts/lib/wrangler.ts";

/** True when the text still holds something a terminal would act on rather than show. */
function hasControl(text: string): boolean {
  return /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u.test(text);
}

describe("terminalSafe", () => {
  it("keeps ordinary text: any script, emoji (with joiners and variation selectors), newlines and tabs", () => {
    const texts = [
      "error   index.html: asset_missing: \"assets/logo.png\" does not exist",
      "Ünïcödé façade — “quotes” … 50 % ± 3 °C",
      "日本語のタイトル、中文标题、한국어 제목",
      "عنوان عربي و עברית", // right-to-left scripts are letters, not controls
      "👩‍👩‍👧 ❤️ 🏳️‍🌈 👍🏽",
      "line one\nline two\n\tindented",
      "[##########--------------------]  33% frame 10/30 eta 2s",
      "",
    ];
    for (const text of texts) expect(terminalSafe(text)).toBe(text);
  });

  it("drops CSI sequences whole: colours, cursor moves, screen and line erases, private modes", () => {
    expect(terminalSafe("\u001b[31mred\u001b[0m")).toBe("red");
    expect(terminalSafe("a\u001b[2Jb\u001b[Hc\u001b[1;1Hd\u001b[Ke\u001b[3Af")).toBe("abcdef");
    expect(terminalSafe("x\u001b[?1049hy\u001b[?25lz")).toBe("xyz");
    expect(terminalSafe("x\u001b[38;2;255;0;0my")).toBe("xy");
    expect(terminalSafe("x\u001b[ qy")).toBe("xy"); // an intermediate byte before the final one
    expect(terminalSafe("x\u001b[")).toBe("x"); // cut off at the end
  });

  it("drops OSC strings with their payload, terminated by BEL, ESC \\ or the 8-bit ST, or unterminated", () => {
    expect(terminalSafe("a\u001b]0;pwned title\u0007b")).toBe("ab");
    expect(terminalSafe("a\u001b]2;pwned\u001b\\b")).toBe("ab");
    expect(terminalSafe("a\u001b]52;c;SGVsbG8=\u0007b")).toBe("ab"); // clipboard write
    expect(terminalSafe("a\u001b]8;;https://evil.example/\u0007link\u001b]8;;\u0007b")).toBe("alinkb"); // hyperlink
    expect(terminalSafe("a\u001b]0;pwned\u009cb")).toBe("ab");
    expect(terminalSafe("a\u001b]0;never ends")).toBe("a");
  });

  it("drops DCS, SOS, PM and APC strings with their payload", () => {
    expect(terminalSafe("a\u001bP1;2|x y\u001b\\b")).toBe("ab"); // util.stripVTControlCharacters keeps "1;2|x y\u001b\\"
    expect(terminalSafe("a\u001bXsos\u001b\\b")).toBe("ab");
    expect(terminalSafe("a\u001b^pm\u001b\\b")).toBe("ab");
    expect(terminalSafe("a\u001b_Gapc=1;payload\u001b\\b")).toBe("ab"); // kitty graphics
  });

  it("drops single-character and nF escapes, and an ESC before anything else", () => {
    for (const seq of ["\u001bc", "\u001b7", "\u001b8", "\u001bM", "\u001bD", "\u001bE", "\u001b=", "\u001b>", "\u001b(B", "\u001b)0", "\u001b#8", "\u001b%G", "\u001b N"]) {
      expect(terminalSafe(`a${seq}b`), JSON.stringify(seq)).toBe("ab");
    }
    expect(terminalSafe("a\u001b\u001b[31mb")).toBe("ab");
    expect(terminalSafe("a\u001b\nb")).toBe("a\nb");
    expect(terminalSafe("a\u001b")).toBe("a");
  });

  it("drops C1 controls, including the 8-bit CSI, OSC and DCS with what they introduce", () => {
    expect(terminalSafe("a\u009b2Jb")).toBe("ab");
    expect(terminalSafe("a\u009b31mb")).toBe("ab");
    expect(terminalSafe("a\u009d0;pwned\u0007b")).toBe("ab");
    expect(terminalSafe("a\u0090payload\u009cb")).toBe("ab");
    for (let cp = 0x80; cp <= 0x9f; cp++) expect(hasControl(terminalSafe(`a${String.fromCharCode(cp)}b`)), cp.toString(16)).toBe(false);
  });

  it("drops every other C0 control and DEL; \\r\\n becomes \\n and a bare \\r cannot overwrite the line", () => {
    for (let cp = 0; cp < 0x20; cp++) {
      if (cp === 0x0a || cp === 0x09 || cp === 0x1b) continue; // ESC: the escapes above
      expect(terminalSafe(`a${String.fromCharCode(cp)}b`), cp.toString(16)).toBe("ab");
    }
    expect(terminalSafe("a\u007fb")).toBe("ab");
    expect(terminalSafe("real error\rALL CHECKS PASSED")).toBe("real errorALL CHECKS PASSED");
    expect(terminalSafe("one\r\ntwo")).toBe("one\ntwo");
    expect(terminalSafe("bell\u0007 backspace\b\b\b")).toBe("bell backspace");
  });

  it("drops bidirectional controls: embeddings, overrides, isolates and marks", () => {
    const bidi = [0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069, 0x200e, 0x200f, 0x061c];
    for (const cp of bidi) expect(terminalSafe(`cod${String.fromCharCode(cp)}txt.exe`)).toBe("codtxt.exe");
  });

  it("leaves nothing a terminal acts on in the attack strings, and keeps their visible words", () => {
    const attack = "\u001b]0;pwned\u0007\u001b[2J\u001b]52;c;SGVsbG8=\u0007ALL CHECKS PASSED";
    expect(terminalSafe(attack)).toBe("ALL CHECKS PASSED");
    // Every code point below U+00A0 and every bidi control, alone and after an ESC and an 8-bit CSI.
    let everything = "";
    for (let cp = 0; cp < 0xa0; cp++) everything += `${String.fromCharCode(cp)}\u001b${String.fromCharCode(cp)}\u009b${String.fromCharCode(cp)}`;
    everything += "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069";
    expect(hasControl(terminalSafe(everything))).toBe(false);
    expect(hasControl(terminalSafe(everything.split("").reverse().join("")))).toBe(false);
  });
});

describe("the CLI's printer", () => {
  /** A printer on a fake terminal, and everything written to it. */
  function fakeTerminal(isTTY: boolean) {
    const written: string[] = [];
    const stream = { isTTY, write: (chunk: string) => written.push(chunk) > 0 } as unknown as NodeJS.WriteStream;
    return { printer: createPrinter(stream), written };
  }

  it("cleans every line, prompt and redraw, and adds its own newline and \\r after", () => {
    const { printer, written } = fakeTerminal(true);
    printer.line("a\u001b]0;pwned\u0007b");
    printer.prompt("c\u009b2Jd");
    printer.redraw("e\u202ef\rg");
    printer.endLine();
    expect(written).toEqual(["ab\n", "cd", "\refg", "\n"]);
  });

  it("cleans the progress bar, whose numbers come from the event stream unchecked", () => {
    const hostile = { percent: 50, frame: "\u001b[2J\u001b]0;pwned\u0007" as unknown as number, total: 30 };
    for (const isTTY of [true, false]) {
      const { printer, written } = fakeTerminal(isTTY);
      const bar = createProgressBar(printer);
      bar.update(hostile);
      bar.done();
      const text = written.join("");
      expect(text).toContain(" 50% frame /30");
      expect(hasControl(text.replaceAll("\r", "").replaceAll("\n", ""))).toBe(false);
    }
  });
});

describe("the CLI's sources", () => {
  it("write to the terminal only through cli/lib/print.ts", () => {
    const cli = join(ROOT, "cli");
    const files = readdirSync(cli, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".ts"));
    expect(files).toContain("studio.ts");
    const offenders: string[] = [];
    for (const file of files) {
      if (file === join("lib", "print.ts")) continue;
      const source = readFileSync(join(cli, file), "utf8");
      for (const [n, line] of source.split("\n").entries()) {
        if (/\bconsole\.|process\.(stdout|stderr)\b|\.write\(/.test(line)) offenders.push(`${relative(ROOT, join(cli, file))}:${n + 1}: ${line.trim()}`);
      }
    }
    expect(offenders).toEqual([]);
  });
});
