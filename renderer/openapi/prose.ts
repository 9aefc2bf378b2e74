/**
 * A line holding only `*` where a paragraph starts: what is left of a `/** … *\/` comment in specs
 * generated from code (grpc-gateway's protoc-gen-openapiv2 writes `"*\nRepresents a request."`).
 * Markdown reads it as an empty bullet. Dropped from every description a page shows.
 */
export function withoutLoneStars(text: string): string {
  return text.includes('*') ? text.replace(/(^|\n[ \t]*\n)[ \t]*\*[ \t]*\n(?=[ \t]*\S)/g, '$1') : text;
}
