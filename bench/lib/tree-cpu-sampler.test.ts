import { expect, it } from "vitest";
import { processKind } from "./tree-cpu-sampler.ts";

it("names a process by Chromium's process type or the program's name", () => {
  expect(processKind("/usr/lib/chromium/chromium-headless-shell --type=gpu-process --no-sandbox")).toBe("chromium gpu-process");
  expect(processKind("/usr/lib/chromium/chromium-headless-shell\0--type=renderer\0--lang=en")).toBe("chromium renderer");
  expect(processKind("/usr/lib/chromium/chromium-headless-shell\0--headless\0--remote-debugging-pipe\0")).toBe("chromium browser");
  expect(processKind("/work/node_modules/@ffmpeg-installer/linux-x64/ffmpeg\0-i\0-\0")).toBe("ffmpeg");
  expect(processKind("node\0bench/render-once.ts\0")).toBe("node");
  expect(processKind("")).toBe("?");
});
