/**
 * The config's banner (inline Markdown from docs.json) through sanitize-html. Raw HTML in pages is
 * judged element by element by html-policy.ts instead, on the parsed attributes.
 */
import sanitizeHtml from 'sanitize-html';

/**
 * One line of text with links and emphasis, nothing that loads (no images, media or frames): for
 * the config's banner, which is on every page, where an outside image would break air-gapping on
 * the whole site.
 */
const PHRASING: sanitizeHtml.IOptions = {
  allowedTags: ['a', 'strong', 'b', 'em', 'i', 'code', 'kbd', 'del', 's', 'u', 'mark', 'sub', 'sup', 'br', 'span'],
  allowedAttributes: { a: ['href', 'title', 'rel', 'target'] },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
};

export function sanitizePhrasingHtml(html: string): string {
  return sanitizeHtml(html, PHRASING);
}
