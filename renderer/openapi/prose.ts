/**
 * A line holding only `*` where a paragraph starts: what is left of a `/** … *\/` comment in specs
 * generated from code (grpc-gateway's protoc-gen-openapiv2 writes `"*\nRepresents a request."`).
 * Markdown reads it as an empty bullet. Dropped from every description a page shows.
 */
export function withoutLoneStars(text: string): string {
  return text.includes('*') ? text.replace(/(^|\n[ \t]*\n)[ \t]*\*[ \t]*\n(?=[ \t]*\S)/g, '$1') : text;
}

// The HTML elements spec text is written with (Scribe's `<b>`, javadoc's `<p>` and `<code>`,
// Stripe's `<p>` round every description): other tag-like text (`List<String>`, `<token>`) stays text.
export const HTML_TAGS = 'a|abbr|b|blockquote|br|code|dd|del|div|dl|dt|em|h[1-6]|hr|i|img|ins|kbd|li|mark|ol|p|pre|s|small|span|strong|sub|sup|table|tbody|td|th|thead|tr|u|ul';
const HTML_TAG_RE = new RegExp(`</?(?:${HTML_TAGS})(?=[\\s/>])[^<>]*>`, 'i');

/** True when spec text holds an HTML element of the kinds prose uses. */
export function holdsHtml(text: string): boolean {
  return HTML_TAG_RE.test(text);
}
