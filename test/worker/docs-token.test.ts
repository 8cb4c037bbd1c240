// GET /api/docs for a person signed in on the dashboard (session cookie): every example carries their own token,
// as it does for a token caller; a visitor and a bot key get the <TOKEN> placeholder; the text is never cached.
import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { api, BASE, signIn } from "./helpers.ts";
import { issueBot } from "./idea-helpers.ts";

const docsWith = (headers: Record<string, string>) => SELF.fetch(`${BASE}/api/docs`, { headers });

describe("docs token", () => {
  it("puts the cookie holder's own token in every example", async () => {
    const s = await signIn("docs-cookie");
    const res = await docsWith({ Cookie: s.cookie });
    expect(res.headers.get("Cache-Control")).toContain("no-store");
    const text = await res.text();
    expect(text).toContain(`Your token: ${s.token}`);
    expect(text).toContain(`curl -H "Authorization: Bearer ${s.token}" ${BASE}/api/me`);
    expect(text).not.toContain("<TOKEN>");
    const curls = text.split("\n").filter((l) => /^\s+curl .*Bearer/.test(l));
    expect(curls.length).toBeGreaterThan(3);
    for (const line of curls) expect(line).toContain(s.token);
  });

  it("shows a visitor, an expired cookie and a bot the placeholder", async () => {
    for (const headers of [{}, { Cookie: "studio_session=forged" }] as Record<string, string>[]) {
      const text = await (await docsWith(headers)).text();
      expect(text).toContain("Your token: <TOKEN>");
      expect(text).not.toMatch(/stu_[A-Za-z0-9_-]{43}/);
    }
    const owner = await signIn("docs-bot-owner");
    const { key } = await issueBot(owner.token, "docs bot");
    const asBot = await (await api(key, "GET", "/api/docs")).text();
    expect(asBot).toContain("Your token: <TOKEN>");
    expect(asBot).not.toContain(owner.token);
  });
});
