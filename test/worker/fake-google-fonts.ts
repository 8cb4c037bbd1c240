// A fake fonts.googleapis.com and fonts.gstatic.com at the true external boundary: a css2 stylesheet for the
// families it knows (two faces each, as Google's: one @font-face per subset) and the font bytes behind them. It
// records every request it answers; GET fonts.gstatic.com/__requests (from the test) reads and clears that record.
const KNOWN = new Set(["Rubik Mono One", "Bungee", "Inter", "League Gothic"]);
const requests: string[] = [];

const slug = (family: string) => family.toLowerCase().replace(/ /g, "-");

function stylesheet(families: string[]): string {
  return families
    .map((family) =>
      ["latin-ext", "latin"]
        .map((subset) => `/* ${subset} */\n@font-face {\n  font-family: '${family}';\n  font-style: normal;\n  font-weight: 400;\n  font-display: swap;\n  src: url(https://fonts.gstatic.com/s/${slug(family)}/v1/${subset}.woff2) format('woff2');\n}`)
        .join("\n"),
    )
    .join("\n");
}

export async function fakeGoogleFonts(request: Request): Promise<Response | null> {
  const url = new URL(request.url);
  if (url.host === "fonts.gstatic.com" && url.pathname === "/__requests") {
    const seen = requests.splice(0);
    return new Response(JSON.stringify(seen), { headers: { "Content-Type": "application/json" } });
  }
  if (url.host === "fonts.googleapis.com" && url.pathname === "/css2") {
    requests.push(`${url.host}${url.pathname}${url.search}`);
    const families = url.searchParams.getAll("family").map((f) => f.split(":")[0]!);
    if (!/Chrome\//.test(request.headers.get("user-agent") ?? "")) return new Response("old browser: ttf", { status: 200 });
    if (!families.every((family) => KNOWN.has(family))) return new Response("Bad Request", { status: 400 });
    return new Response(stylesheet(families), { headers: { "Content-Type": "text/css; charset=utf-8" } });
  }
  if (url.host === "fonts.gstatic.com" && url.pathname.startsWith("/s/")) {
    requests.push(`${url.host}${url.pathname}`);
    // wOF2 magic, then the path, so each file's bytes are its own.
    return new Response(new TextEncoder().encode(`wOF2${url.pathname}`), { headers: { "Content-Type": "font/woff2" } });
  }
  return null;
}
