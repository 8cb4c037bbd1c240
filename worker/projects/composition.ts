// Composition facts the project summary needs. Temporary minimal reader until core/composition lands.
export interface CompositionMeta {
  compositionId: string | null;
  duration: number | null;
}

export function readCompositionMeta(html: string): CompositionMeta {
  const root = /<[a-z][^>]*\bdata-composition-id\s*=\s*["']?([^"'\s>]+)[^>]*>/i.exec(html);
  if (!root) return { compositionId: null, duration: null };
  const duration = /\bdata-duration\s*=\s*["']?([0-9.]+)/i.exec(root[0]);
  return { compositionId: root[1] ?? null, duration: duration ? Number(duration[1]) : null };
}

export function starterComposition(options: { compositionId: string; title: string; duration: number }): string {
  const title = options.title.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
  const id = options.compositionId;
  return `<!doctype html>
<html>
<head>
<meta charset="utf-8">
<style>
html, body { width: 1920px; height: 1080px; overflow: hidden; margin: 0; }
[data-composition-id="${id}"] .title { position: absolute; left: 160px; top: 460px; font: 700 120px system-ui, sans-serif; color: #fff; }
[data-composition-id="${id}"] { background: #111; width: 1920px; height: 1080px; position: relative; }
</style>
</head>
<body>
<div data-composition-id="${id}" data-start="0" data-duration="${options.duration}" data-width="1920" data-height="1080">
  <h1 class="title">${title}</h1>
</div>
<script src="https://cdn.jsdelivr.net/npm/gsap@3.14.2/dist/gsap.min.js"></script>
<script>
const tl = gsap.timeline({ paused: true });
tl.from('[data-composition-id="${id}"] .title', { opacity: 0, y: 60, duration: 1 });
tl.to({}, { duration: ${options.duration} - 1 });
window.__timelines = window.__timelines || {};
window.__timelines["${id}"] = tl;
</script>
</body>
</html>
`;
}
