/**
 * GFM footnotes, as MDX's remark-gfm (Mintlify's markdown) writes them: `text[^1]` becomes a
 * numbered superscript link, `[^1]: note` at the start of a line a numbered note in a
 * "Footnotes" section at the end of the page, with a link back. Numbers follow the order of first
 * reference; a reference without a definition, and a definition never referenced, are left as
 * remark-gfm leaves them (the reference as text; the definition dropped).
 */
import { contentStrings, type ContentStrings } from '../i18n/content-strings.js';
import type { TokenizerAndRendererExtension, Tokens } from 'marked';
import { escapeHtml } from './html.js';

const DEFINITION_RE = /^\[\^([^\]\s]+)\]:[ \t]*/gm;
/** A definition: its first line, then lines indented under it (blank lines between allowed). */
const DEFINITION_TOKEN_RE = /^\[\^([^\]\s]+)\]:[ \t]*([^\n]*(?:\n(?:[ \t]*\n)*(?: {2,}|\t)[^\n]*)*)(?:\n|$)/;
const REFERENCE_RE = /^\[\^([^\]\s]+)\](?!:)/;

export interface Footnotes {
  /** Labels defined somewhere in the page (read from its source before rendering). */
  defined: Set<string>;
  /** Label → note HTML (inline), as the definitions are rendered. */
  notes: Map<string, string>;
  /** Labels referenced (numbers are given later, in document order: numberFootnotes). */
  referenced: Set<string>;
}

/** The page's footnote labels, or undefined for the (usual) page without any. */
export function footnotesOf(source: string): Footnotes | undefined {
  if (!source.includes('[^')) return undefined;
  const defined = new Set<string>();
  for (const m of source.matchAll(DEFINITION_RE)) defined.add(normalise(m[1] as string));
  return defined.size === 0 ? undefined : { defined, notes: new Map(), referenced: new Set() };
}

function normalise(label: string): string {
  return label.toLowerCase();
}

function slug(label: string): string {
  return encodeURIComponent(normalise(label));
}

type FootnoteToken = Tokens.Generic & { label: string; text?: string };

/** The marked extensions; `notesOf` gives the page being rendered's footnotes (or none). */
export function footnoteExtensions(notesOf: () => Footnotes | undefined): TokenizerAndRendererExtension[] {
  return [
    {
      name: 'footnoteDefinition',
      level: 'block',
      start: (src) => {
        if (!notesOf()) return undefined;
        const at = src.search(/(?:^|\n)\[\^/);
        return at === -1 ? undefined : src[at] === '\n' ? at + 1 : at;
      },
      tokenizer(src) {
        const notes = notesOf();
        if (!notes) return undefined;
        const m = DEFINITION_TOKEN_RE.exec(src);
        if (!m || !notes.defined.has(normalise(m[1] as string))) return undefined;
        const text = (m[2] as string).replace(/\n(?: {2,4}|\t)/g, '\n').trim();
        return { type: 'footnoteDefinition', raw: m[0], label: normalise(m[1] as string), text, tokens: this.lexer.inlineTokens(text) };
      },
      renderer(token) {
        const t = token as FootnoteToken;
        const notes = notesOf();
        if (notes && !notes.notes.has(t.label)) notes.notes.set(t.label, this.parser.parseInline(t.tokens ?? []));
        return '';
      },
    },
    {
      name: 'footnoteReference',
      level: 'inline',
      start: (src) => {
        if (!notesOf()) return undefined;
        const at = src.indexOf('[^');
        return at === -1 ? undefined : at;
      },
      tokenizer(src) {
        const notes = notesOf();
        if (!notes) return undefined;
        const m = REFERENCE_RE.exec(src);
        if (!m || !notes.defined.has(normalise(m[1] as string))) return undefined;
        return { type: 'footnoteReference', raw: m[0], label: normalise(m[1] as string) };
      },
      renderer(token) {
        const t = token as FootnoteToken;
        const notes = notesOf();
        if (!notes) return escapeHtml(t.raw);
        notes.referenced.add(t.label);
        // Components render before the text around them: numbers are given on the finished page.
        return `<sup><a href="#user-content-fn-${slug(t.label)}" data-footnote-ref aria-describedby="footnote-label"></a></sup>`;
      },
    },
  ];
}

/** The "Footnotes" section for the end of the page ('' when nothing was referenced); numbered later. */
export function footnotesSection(notes: Footnotes | undefined, words: ContentStrings = contentStrings('en')): string {
  if (!notes || notes.referenced.size === 0) return '';
  const items = [...notes.referenced].map((label) => `<li id="user-content-fn-${slug(label)}"><p>${notes.notes.get(label) ?? ''}<span data-fn-back="${slug(label)}"></span></p></li>`);
  return `<section data-footnotes class="c-footnotes"><h2 class="c-sr-only" id="footnote-label">${escapeHtml(words.footnotes)}</h2>\n<ol>\n${items.join('\n')}\n</ol>\n</section>\n`;
}

const REF_HTML_RE = /<a href="#user-content-fn-([^"]+)" data-footnote-ref aria-describedby="footnote-label"><\/a>/g;
const SECTION_RE = /<section data-footnotes class="c-footnotes">([\s\S]*?)<ol>\n([\s\S]*)\n<\/ol>\n<\/section>/;
const ITEM_RE = /<li id="user-content-fn-([^"]+)">([\s\S]*?)<\/li>/g;

/**
 * On the finished page: each reference numbered in document order (the first reference of a
 * label gives its number, later ones link back too), the notes in that order with their links back.
 */
export function numberFootnotes(html: string, words: ContentStrings = contentStrings('en')): string {
  if (!html.includes('data-footnote-ref')) return html;
  const numbers = new Map<string, number>();
  const counts = new Map<string, number>();
  let out = html.replace(REF_HTML_RE, (_all, id: string) => {
    if (!numbers.has(id)) numbers.set(id, numbers.size + 1);
    const count = (counts.get(id) ?? 0) + 1;
    counts.set(id, count);
    return `<a href="#user-content-fn-${id}" id="user-content-fnref-${id}${count > 1 ? `-${count}` : ''}" data-footnote-ref aria-describedby="footnote-label">${numbers.get(id)}</a>`;
  });
  out = out.replace(SECTION_RE, (_all, head: string, list: string) => {
    const items = new Map<string, string>();
    for (const m of list.matchAll(ITEM_RE)) items.set(m[1] as string, m[2] as string);
    const ordered = [...numbers.keys()].filter((id) => items.has(id)).map((id) => {
      const n = numbers.get(id) as number;
      let back = '';
      for (let k = 1; k <= (counts.get(id) ?? 1); k++) {
        const suffix = k > 1 ? `-${k}` : '';
        back += ` <a href="#user-content-fnref-${id}${suffix}" data-footnote-backref aria-label="${escapeHtml(words.backToReference.replace('{n}', `${n}${suffix}`))}" class="c-footnotes__back">↩${k > 1 ? `<sup>${k}</sup>` : ''}</a>`;
      }
      return `<li id="user-content-fn-${id}">${(items.get(id) as string).replace(`<span data-fn-back="${id}"></span>`, back)}</li>`;
    });
    return `<section data-footnotes class="c-footnotes">${head}<ol>\n${ordered.join('\n')}\n</ol>\n</section>`;
  });
  return out;
}
