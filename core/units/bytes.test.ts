import { describe, expect, it } from "vitest";
import { describeBytes } from "./bytes.ts";

describe("describeBytes", () => {
  it("counts bytes below a KiB and rounds larger sizes to one decimal in binary units", () => {
    expect(describeBytes(0)).toBe("0 bytes");
    expect(describeBytes(1023)).toBe("1023 bytes");
    expect(describeBytes(1024)).toBe("1 KiB");
    expect(describeBytes(1536 * 1024)).toBe("1.5 MiB");
    expect(describeBytes(5 * 1024 ** 3)).toBe("5 GiB");
    expect(describeBytes(7 * 1024 ** 2 + 5000)).toBe("7 MiB");
  });
});
