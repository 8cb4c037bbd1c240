import { logIgnored } from "./log-ignored.ts";
// Render mode shows each <video> as an <img data-studio-video> (page-styles.ts), so a style rule that names the
// `video` element type would no longer match it: HyperFrames keeps the <video> in place (its frames are drawn over
// it), so there `video { width: 100%; object-fit: cover }` still sizes the picture. Each such rule gets a twin right
// after it with `video` read as `img[data-studio-video]`, in every same-origin stylesheet and group (@media,
// @supports, @layer), so the cascade orders the twins as it ordered the originals.

// `video` as a type selector: at the start of a compound (after nothing, a combinator, a comma or a parenthesis of
// :is()/:not()/:where()/:has()), and not the start of a longer name (video-card) or part of .video / #video / [video].
const VIDEO_TYPE = /(^|[\s>+~,(])video(?![\w-])/gi;

export function videoSelectorTwin(selector: string): string | null {
  VIDEO_TYPE.lastIndex = 0;
  if (!VIDEO_TYPE.test(selector)) return null;
  return selector.replace(VIDEO_TYPE, (_, before: string) => `${before}img[data-studio-video]`);
}

function twinRules(list: CSSRuleList, insert: (text: string, index: number) => void): void {
  // Backwards, so an insertion does not move the rules still to visit.
  for (let i = list.length - 1; i >= 0; i--) {
    const rule = list[i]!;
    if (rule instanceof CSSStyleRule) {
      const twin = videoSelectorTwin(rule.selectorText);
      if (twin !== null) insert(`${twin} { ${rule.style.cssText} }`, i + 1);
    } else if (rule instanceof CSSGroupingRule) {
      const group = rule;
      twinRules(group.cssRules, (text, index) => group.insertRule(text, index));
    }
  }
}

/** Adds the twins to every stylesheet the page has now; one the page may not read (another origin) is left as is. */
export function twinVideoSelectors(): void {
  for (let s = 0; s < document.styleSheets.length; s++) {
    const sheet = document.styleSheets[s]!;
    let rules: CSSRuleList;
    try {
      rules = sheet.cssRules;
    } catch (error) {
      logIgnored("a stylesheet the page may not read (another origin) keeps its video selectors", error);
      continue;
    }
    twinRules(rules, (text, index) => {
      try {
        sheet.insertRule(text, index);
      } catch (error) {
        // A twin Chromium will not parse (a selector it accepted only in the original's context): left out.
        logIgnored("a twinned video selector does not parse: " + text, error);
      }
    });
  }
}
