// IP address literals as bytes, so that every spelling of one address compares equal. Pure. IPv4 is accepted only
// as four dotted decimal parts: a URL's host has already been through the WHATWG parser, which turns the shorthand,
// decimal, octal and hex spellings (127.1, 2130706433, 0x7f.1, 0177.0.0.1) into that form. IPv6 is parsed here into
// its 16 bytes whatever the spelling (compressed or not, leading zeros, an embedded dotted IPv4 tail).

export type IpAddress = { version: 4; bytes: number[] } | { version: 6; bytes: number[] };

const DOTTED = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/** The four bytes of a dotted-decimal IPv4 address, or null. */
export function parseIpv4(text: string): number[] | null {
  const m = DOTTED.exec(text);
  if (!m) return null;
  const bytes = m.slice(1).map(Number);
  return bytes.every((b) => b <= 255) ? bytes : null;
}

/** Up to eight 16-bit groups from colon-separated hex (and a dotted IPv4 tail when allowed), or null. */
function groupsOf(part: string, allowIpv4Tail: boolean): number[] | null {
  if (part === "") return [];
  const out: number[] = [];
  const pieces = part.split(":");
  for (const [i, piece] of pieces.entries()) {
    if (allowIpv4Tail && i === pieces.length - 1 && piece.includes(".")) {
      const v4 = parseIpv4(piece);
      if (!v4) return null;
      out.push((v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!);
    } else if (/^[0-9a-f]{1,4}$/i.test(piece)) {
      out.push(parseInt(piece, 16));
    } else {
      return null;
    }
  }
  return out;
}

/** The sixteen bytes of an IPv6 address (with or without brackets), or null. */
export function parseIpv6(text: string): number[] | null {
  const bare = text.startsWith("[") && text.endsWith("]") ? text.slice(1, -1) : text;
  const halves = bare.split("::");
  if (halves.length > 2) return null;
  let groups: number[] | null;
  if (halves.length === 1) {
    groups = groupsOf(bare, true);
    if (!groups || groups.length !== 8) return null;
  } else {
    const head = groupsOf(halves[0]!, false);
    const tail = groupsOf(halves[1]!, true);
    if (!head || !tail || head.length + tail.length > 7) return null;
    groups = [...head, ...Array<number>(8 - head.length - tail.length).fill(0), ...tail];
  }
  return groups.flatMap((g) => [g >> 8, g & 0xff]);
}

/** An IP literal in any of the spellings above, or null for a name. */
export function parseIp(text: string): IpAddress | null {
  const v4 = parseIpv4(text);
  if (v4) return { version: 4, bytes: v4 };
  const v6 = parseIpv6(text);
  return v6 ? { version: 6, bytes: v6 } : null;
}

/** True for an IPv4-mapped IPv6 address (::ffff:a.b.c.d), which is its IPv4 address in IPv6 clothing. */
export function isIpv4Mapped(address: IpAddress): boolean {
  const b = address.bytes;
  return address.version === 6 && b.slice(0, 10).every((x) => x === 0) && b[10] === 0xff && b[11] === 0xff;
}

/** The address itself, or for an IPv4-mapped one the IPv4 address it stands for. */
export function unmapIpv4(address: IpAddress): IpAddress {
  return isIpv4Mapped(address) ? { version: 4, bytes: address.bytes.slice(12) } : address;
}

/** True when the first `bits` bits of the two byte strings agree. */
export function samePrefix(a: readonly number[], b: readonly number[], bits: number): boolean {
  for (let i = 0; i < bits; i += 8) {
    const take = Math.min(8, bits - i);
    const mask = (0xff << (8 - take)) & 0xff;
    if (((a[i / 8] ?? -1) & mask) !== ((b[i / 8] ?? -2) & mask)) return false;
  }
  return true;
}

/** The canonical text of an address: dotted IPv4, or IPv6 as eight unpadded hex groups joined by colons. */
export function formatIp(address: IpAddress): string {
  if (address.version === 4) return address.bytes.join(".");
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(((address.bytes[i]! << 8) | address.bytes[i + 1]!).toString(16));
  return groups.join(":");
}
