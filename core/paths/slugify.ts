// Project slugs match ^[a-z0-9][a-z0-9-]*$; a display name becomes one by lowercasing and hyphenating.
export const SLUG_PATTERN = /^[a-z0-9][a-z0-9-]*$/;
export const MAX_SLUG_LENGTH = 64;

/** "My First Video!" → "my-first-video". Accents are folded; anything else becomes a hyphen. */
export function slugify(name: string): string {
  return name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, MAX_SLUG_LENGTH)
    .replace(/-+$/, "");
}

export function isSlug(value: string): boolean {
  return value.length <= MAX_SLUG_LENGTH && SLUG_PATTERN.test(value);
}
