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

/**
 * The components spec text writes as elements: a capitalised tag that is closed
 * (`<Note>…</Note>`) or closes itself (`<Icon icon="x" />`). Mintlify reads descriptions as MDX;
 * a type written in angle brackets (`List<String>`, "press <Tab>") opens nothing that closes and
 * stays text. Linear in the text for each name: no lookahead from every `<`.
 */
export function componentElements(text: string): Set<string> {
  const names = new Set<string>();
  if (!/<[A-Z]/.test(text)) return names;
  for (const m of text.matchAll(/<([A-Z][\w.]*)(?:\s[^<>]*)?\/>/g)) names.add(m[1] ?? '');
  const checked = new Set<string>();
  for (const m of text.matchAll(/<\/([A-Z][\w.]*)\s*>/g)) {
    const name = m[1] ?? '';
    if (names.has(name) || checked.has(name)) continue;
    // Each name is one scan of the text: past a few hundred (no real description) the rest is text.
    if (checked.size >= 200) break;
    checked.add(name);
    if (new RegExp(`<${name.replace(/\./g, '\\.')}(?=[\\s/>])`).test(text.slice(0, m.index))) names.add(name);
  }
  names.delete('');
  return names;
}

export function holdsComponent(text: string): boolean {
  return componentElements(text).size > 0;
}

/** Spec text that is more than Markdown: HTML elements or Mintlify components, read as markup. */
export function holdsMarkup(text: string): boolean {
  return holdsHtml(text) || holdsComponent(text);
}

/**
 * Spec text without the indentation all its lines share (a YAML block scalar written with an
 * explicit indentation indicator, a JSON string copied from indented source, a docstring whose
 * first line follows the opening quotes: then the common indentation is that of the lines after
 * the first, as Python's `inspect.cleandoc`). MDX reads no indented code blocks, so the
 * indentation only ever hid what the text holds: a `<Note>` block or a list shown as typed.
 */
export function dedented(text: string): string {
  if (!/\n[ \t]|^[ \t]/.test(text)) return text;
  const lines = text.split('\n');
  const first = lines[0] ?? '';
  const from = first.trim() !== '' && !/^[ \t]/.test(first) ? 1 : 0;
  let common: string | undefined;
  for (let i = from; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (line.trim() === '') continue;
    const lead = /^[ \t]*/.exec(line)?.[0] ?? '';
    if (common === undefined) common = lead;
    else {
      let k = 0;
      while (k < common.length && k < lead.length && common[k] === lead[k]) k++;
      common = common.slice(0, k);
    }
    if (common === '') return text;
  }
  if (!common) return text;
  const cut = common.length;
  return lines.map((line, i) => (i < from ? line : line.trim() === '' ? '' : line.slice(cut))).join('\n');
}
