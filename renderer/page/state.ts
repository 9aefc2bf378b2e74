/**
 * Per-page rendering state. Rendered pieces (components, code blocks, math) are kept aside as
 * numbered slots and stand in the markdown as private-use-character placeholders, so marked never
 * re-parses trusted HTML and sanitising only ever sees user markup. Slots are put back in one pass
 * at the end (see resolve.ts).
 */
import type { Footnotes } from './footnotes.js';
import type { PageIconTable } from '../islands/icons.js';
import type { PageIslands } from '../islands/island.js';
import type { ApiExamplePanel, BuildWarning, RenderContext } from '../types.js';
import type { SnippetMemo } from './snippets.js';
import { contentStrings, type ContentStrings } from '../i18n/content-strings.js';
import { apiStrings, type ApiStrings } from '../i18n/api-strings.js';
import type { ElementNode } from './tree.js';
import { ANONYMOUS } from '../access/contract.js';
import { filterMarked } from '../access/filter.js';
import { htmlToText } from './html.js';

export interface Slot {
  html: string;
  /** Plain text for the search index; may itself contain placeholders. */
  text: string;
  /** Set for code blocks, so CodeGroup and the example panels can regroup them. */
  code?: CodeSlot;
}

export interface CodeSlot {
  lang: string;
  title?: string;
  /** The block without its frame, for use as a tab panel. */
  inner: string;
}

export interface HeadingSlot {
  depth: number;
  /** An explicit `{#id}`; otherwise the id is slugged from the resolved text at the end. */
  base: string;
  custom: boolean;
  /** Heading text with placeholders, resolved at the end for the toc. */
  text: string;
  /** Headings inside components are given ids but kept out of the toc. */
  inToc: boolean;
  /** `base` is a ready-made id (a field anchor such as `param-name`), only made unique. */
  anchor?: boolean;
}

/**
 * Warnings of one code listed per page. A generated page with 50,000 broken links took 18 s to
 * export, most of it finding each link's line in the source; a reader needs the first few.
 */
export const MAX_WARNINGS_PER_CODE = 50;

// Private-use characters: never produced by marked, never escaped by it or by sanitize-html.
export const INLINE_OPEN = '\uE000';
export const INLINE_CLOSE = '\uE001';
export const BLOCK_OPEN = '\uE002';
export const BLOCK_CLOSE = '\uE003';
export const HEADING_OPEN = '\uE004';
export const HEADING_CLOSE = '\uE005';

const PLACEHOLDER_CHAR_RE = /[\uE000-\uE005]/;
const PLACEHOLDER_CHARS_RE = /[\uE000-\uE005]/g;

/**
 * The placeholder characters in text an author wrote (page, snippet, variable values), replaced
 * by U+FFFD: left alone they would pull a rendered piece into wherever they stand (an attribute
 * value, with its quotes) when the slots are put back.
 */
export function withoutPlaceholders(text: string): string {
  return PLACEHOLDER_CHAR_RE.test(text) ? text.replace(PLACEHOLDER_CHARS_RE, '\uFFFD') : text;
}

export class PageState {
  readonly slots: Slot[] = [];
  readonly headings: HeadingSlot[] = [];
  readonly warnings: BuildWarning[] = [];
  readonly snippetMemo: SnippetMemo = new Map();
  usesMath = false;
  /** The page's GFM footnotes (footnotes.ts), when its source defines any. */
  footnotes: Footnotes | undefined;
  usesMermaid = false;
  /** The page has a "Try it" playground (renderer/openapi/playground.ts): it loads playground.js/.css. */
  usesPlayground = false;
  /** A generated API page's examples column as retrieval reads it (renderer/openapi/render.ts). */
  apiExamples: ApiExamplePanel[] | undefined;
  /**
   * The page needs the signed-in reader in the browser (issue 40): code that reads `user`, or,
   * with reader access on, a playground to prefill. It then loads reader.js (islands/reader-script.ts).
   */
  readsUser = false;
  /** Running components on the page: the scripts it loads and the module files they are. */
  islands: PageIslands | undefined;
  /** The icons the page's running components can show (shipped with the islands, renderer/islands/icons.ts). */
  islandIcons: PageIconTable | undefined;
  /** Depth of component nesting, so headings inside components stay out of the toc. */
  componentDepth = 0;
  /** Depth inside links (markdown or raw `<a>`): stand-ins for outside media add no link of their own there. */
  linkDepth = 0;
  /** Depth inside a component's icon box (`icon={<img …/>}`): an outside image there gets the icon-only stand-in. */
  iconDepth = 0;
  /** Names of the ParamField/ResponseField elements being rendered, outermost first (nested anchors). */
  readonly fieldPath: string[] = [];
  /** Depth of snippet / user component expansion, to stop a snippet that includes itself. */
  snippetDepth = 0;
  private uidCounter = 0;
  private readonly warned = new Set<string>();
  private readonly listed = new Map<string, number>();
  private readonly unlisted = new Map<string, number>();

  /** The words the page's content writes itself, in the page's navigation language. */
  readonly words: ContentStrings;
  /** The words of a generated API page's own sections (renderer/openapi/page-tree.ts), in the same language. */
  readonly apiWords: ApiStrings;

  constructor(
    readonly ctx: RenderContext,
    readonly pageFile: string,
    lang?: string,
  ) {
    this.words = contentStrings(lang);
    this.apiWords = apiStrings(lang);
  }

  get unsafeHtml(): boolean {
    return this.ctx.config.allowUnsafeHtml === true;
  }

  inline(html: string, text: string, code?: CodeSlot): string {
    return `${INLINE_OPEN}${this.push(html, text, code)}${INLINE_CLOSE}`;
  }

  block(html: string, text: string, code?: CodeSlot): string {
    return `${BLOCK_OPEN}${this.push(html, text, code)}${BLOCK_CLOSE}`;
  }

  /**
   * The plain text a component gave for the element it rendered (a code group: its labels and its
   * code as written), taken by renderNodes instead of reading the markup back into text.
   */
  private elementText: { el: ElementNode; text: string } | undefined;

  setElementText(el: ElementNode, text: string): void {
    this.elementText = { el, text };
  }

  takeElementText(el: ElementNode): string | undefined {
    const own = this.elementText;
    if (own?.el !== el) return undefined;
    this.elementText = undefined;
    return own.text;
  }

  private push(html: string, given: string, code?: CodeSlot): number {
    // A slot's text is read from its HTML before the page's text is filtered (index.ts), so the
    // group-dependent fragments inside it (API fields, parameters) would reach the page's search
    // text, the same for every reader: with reader access on it is the slot's public view.
    const text = this.ctx.readerAccess === true && html.includes('<!--da:') ? htmlToText(filterMarked(html, ANONYMOUS)) : given;
    this.slots.push(code ? { html, text, code } : { html, text });
    return this.slots.length - 1;
  }

  heading(slot: HeadingSlot): string {
    this.headings.push(slot);
    return `${HEADING_OPEN}${this.headings.length - 1}${HEADING_CLOSE}`;
  }

  /** A marker for a component's anchor id (`param-name`), made unique with the page's headings. */
  anchor(id: string): string {
    return this.heading({ depth: 0, base: id, custom: false, text: '', inToc: false, anchor: true });
  }

  /** A marker for a component's id: its `id` prop as written, or else the slug of its title. */
  titleAnchor(title: string, custom: string | undefined): string {
    return this.heading({ depth: 0, base: custom ?? '', custom: custom !== undefined, text: title, inToc: false });
  }

  /** Page-unique ids for tabs and tooltips (deterministic: the same page gives the same ids). */
  uid(prefix: string): string {
    this.uidCounter++;
    return `${prefix}-${this.uidCounter}`;
  }

  /**
   * False once the page has listed MAX_WARNINGS_PER_CODE warnings of this code; the rest are only
   * counted. Callers that must search the source for a warning's line ask first and skip the search.
   */
  wants(code: string): boolean {
    if ((this.listed.get(code) ?? 0) < MAX_WARNINGS_PER_CODE) return true;
    this.unlisted.set(code, (this.unlisted.get(code) ?? 0) + 1);
    return false;
  }

  warn(code: string, message: string, file: string, line?: number): void {
    if (!this.wants(code)) return;
    const key = `${code}\0${message}\0${file}\0${line ?? ''}`;
    if (this.warned.has(key)) return;
    this.warned.add(key);
    this.listed.set(code, (this.listed.get(code) ?? 0) + 1);
    this.warnings.push(line === undefined ? { code, message, file } : { code, message, file, line });
  }

  /** The page's warnings, with one line per code that had more than could be listed. */
  finalWarnings(): BuildWarning[] {
    const out = [...this.warnings];
    for (const [code, n] of this.unlisted) {
      out.push({ code, message: `${n} more ${code} warning${n === 1 ? '' : 's'} on this page ${n === 1 ? 'is' : 'are'} not listed (the first ${MAX_WARNINGS_PER_CODE} are)`, file: this.pageFile });
    }
    return out;
  }
}
