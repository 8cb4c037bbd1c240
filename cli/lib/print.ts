// The CLI's only way to the terminal. Almost everything it prints carries text from the studio, so every string is
// made terminal-safe (terminal-safe.ts) here, and the CLI's own controls (the progress bar's \r) are added after.
// Nothing else in cli/ writes to stdout or stderr (test/node/cli-terminal-safe.test.ts checks the sources).
import { terminalSafe } from "./terminal-safe.ts";

export interface Printer {
  readonly isTTY: boolean;
  /** A line of text. */
  line(text: string): void;
  /** Text without a newline (a prompt). */
  prompt(text: string): void;
  /** Redraws the current line in place (a terminal only): \r, then the text. */
  redraw(text: string): void;
  /** Ends a line left open by redraw. */
  endLine(): void;
}

/** A printer writing to one stream. */
export function createPrinter(stream: NodeJS.WriteStream): Printer {
  return {
    get isTTY() {
      return stream.isTTY === true;
    },
    line: (text) => void stream.write(`${terminalSafe(text)}\n`),
    prompt: (text) => void stream.write(terminalSafe(text)),
    redraw: (text) => void stream.write(`\r${terminalSafe(text)}`),
    endLine: () => void stream.write("\n"),
  };
}

export const stdout = createPrinter(process.stdout);
export const stderr = createPrinter(process.stderr);

/** Prints a line on stdout. */
export const say = (text: string): void => stdout.line(text);

/** Prints a line on stderr. */
export const complain = (text: string): void => stderr.line(text);
