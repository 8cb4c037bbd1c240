// Markdown of comments, ideas and research records to safe HTML: marked (GitHub-flavoured: tables, fenced code,
// autolinks) and then DOMPurify with a short allow-list. No images (a tracking pixel would tell a stranger who
// read the comment), no raw HTML beyond the list, links only http(s), mailto and relative, opened apart.
import DOMPurify from "dompurify";
import { Marked } from "marked";
import { safeHref } from "./safe-href.ts";

const escapeHtml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

// Raw HTML in the source stays text (as it was typed), and an image shows its alt text: neither ever reaches the
// sanitizer as markup. DOMPurify below is the second line, for whatever marked itself produces.
const marked = new Marked({
  gfm: true,
  breaks: false,
  async: false,
  renderer: {
    html: ({ text }) => escapeHtml(text),
    image: ({ text }) => escapeHtml(text),
  },
});

const ALLOWED_TAGS = [
  "p", "br", "hr", "strong", "em", "del", "code", "pre", "blockquote", "ul", "ol", "li", "a",
  "h1", "h2", "h3", "h4", "h5", "h6", "table", "thead", "tbody", "tr", "th", "td", "input",
];
const ALLOWED_ATTR = ["href", "title", "start", "align", "type", "checked", "disabled"];

let hooked = false;
function purifier() {
  if (!hooked) {
    hooked = true;
    DOMPurify.addHook("afterSanitizeAttributes", (node) => {
      if (node.tagName === "A") {
        const href = node.getAttribute("href") ?? "";
        if (href && safeHref(href) === null) node.removeAttribute("href");
        if (/^(https?:)?\/\//i.test(href)) {
          node.setAttribute("target", "_blank");
          node.setAttribute("rel", "noopener noreferrer nofollow");
        }
      }
      // Task-list checkboxes only: any other input is dropped.
      if (node.tagName === "INPUT" && node.getAttribute("type") !== "checkbox") node.remove();
      if (node.tagName === "INPUT") node.setAttribute("disabled", "");
    });
  }
  return DOMPurify;
}

export function renderMarkdown(source: string): string {
  const html = marked.parse(source) as string;
  return purifier().sanitize(html, {
    ALLOWED_TAGS,
    ALLOWED_ATTR: [...ALLOWED_ATTR, "target", "rel"],
  });
}
