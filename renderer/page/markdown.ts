/**
 * The one marked instance of the process (GFM), with the hooks the page renderer needs: heading
 * ids and `{#custom-id}`, build-time highlighted code blocks, math, link and image rewriting.
 * Raw HTML never reaches marked as markup (the MDX parser took every real tag), so whatever marked
 * still thinks is HTML is shown as text.
 */
import { Marked, Renderer, Tokenizer, type Tokens } from 'marked';
import { highlightCode, parseFenceInfo } from './code.js';
import type { Env } from './env.js';
import { codeSpanText } from './code-span-text.js';
import { escapeHtml, inlineHtmlToText } from './html.js';
import { resolveAsset, resolveHref } from './links.js';
import { outsideImagePlaceholder } from './outside-media.js';
import { renderMath } from './math.js';
import { footnoteExtensions } from './footnotes.js';
import type { PageState } from './state.js';
import type { ContentStrings } from '../i18n/content-strings.js';
import { copyButton } from './copy-button.js';

interface Current {
  state: PageState;
  env: Env;
}

/** The page being rendered; marked calls are synchronous, so a stack is enough. */
const stack: Current[] = [];

function current(): Current {
  const top = stack[stack.length - 1];
  if (!top) throw new Error('markdown renderer used outside renderMarkdown()');
  return top;
}

const DEEP_FENCE_OPEN_RE = /^( {4,})(`{3,}|~{3,})([^\n]*)(?:\n|$)/;

/** A fence opened after ≥ 4 spaces: its lines lose up to that indentation, as CommonMark does for fences. */
function deepFence(src: string): Tokens.Code | undefined {
  const open = DEEP_FENCE_OPEN_RE.exec(src);
  if (!open) return undefined;
  const [, indentText = '', fence = '```', infoText = ''] = open;
  if (fence[0] === '`' && infoText.includes('`')) return undefined;
  const indent = new RegExp(`^ {0,${indentText.length}}`);
  const close = new RegExp(`^ *\\${fence[0]}{${fence.length},} *$`);
  const lines: string[] = [];
  let pos = open[0].length;
  while (pos < src.length) {
    const end = src.indexOf('\n', pos);
    const line = src.slice(pos, end === -1 ? src.length : end);
    pos = end === -1 ? src.length : end + 1;
    if (close.test(line)) break;
    lines.push(line.replace(indent, ''));
  }
  return { type: 'code', raw: src.slice(0, pos), lang: infoText.trim(), text: lines.join('\n') };
}

const CUSTOM_ID_RE = /\s*\{#([\w-]+)\}\s*$/;
const CUSTOM_ID_HTML_RE = /\s*\{#[\w-]+\}\s*$/;
/**
 * MDX has no indented code blocks and no raw HTML for marked to read (the MDX parser took every
 * real tag): those tokenizers are off. Subclasses given through `setOptions`, not `use()`: `use()`
 * wraps every overridden method in a rest-arguments closure, and marked calls `tag` at every
 * step of every inline run.
 */
class MdxTokenizer extends Tokenizer {
  override code(): undefined {
    return undefined;
  }

  // …and so a fence indented by four or more spaces (code inside an indented <Tab>) is still a
  // fence, as micromark reads it with indented code off; marked's own rule stops at three.
  override fences(src: string): Tokens.Code | undefined {
    return deepFence(src) ?? super.fences(src);
  }

  override html(): undefined {
    return undefined;
  }

  override tag(): undefined {
    return undefined;
  }
}

class PageRenderer extends Renderer {
  override heading({ tokens, depth, text }: Tokens.Heading) {
    const { state } = current();
    const inner = this.parser.parseInline(tokens).replace(CUSTOM_ID_HTML_RE, '');
    const custom = CUSTOM_ID_RE.exec(text)?.[1];
    const plain = inlineHtmlToText(inner).trim();
    const marker = state.heading({
      depth,
      base: custom ?? '',
      custom: custom !== undefined,
      text: plain,
      inToc: state.componentDepth === 0,
    });
    return `<h${depth} id="${marker}" class="c-heading"><a class="c-heading__anchor" href="#${marker}" aria-hidden="true" tabindex="-1"></a>${inner}</h${depth}>\n`;
  }

  override code({ text, lang }: Tokens.Code) {
    const { state } = current();
    const info = parseFenceInfo(lang);
    if (info.lang === 'mermaid') {
      state.usesMermaid = true;
      return state.block(`<pre class="mermaid c-mermaid">${escapeHtml(text)}</pre>`, '');
    }
    if (info.lang === 'math') return mathSlot(text, true, 'block');
    const pre = highlightCode(text, info);
    const label = info.title ?? info.lang;
    const html = codeFrame(pre, label, info.title !== undefined, state.words);
    return state.block(html, text, info.title === undefined ? { lang: info.lang, inner: pre } : { lang: info.lang, title: info.title, inner: pre });
  }

  override link({ href, title, tokens }: Tokens.Link) {
    const { state, env } = current();
    state.linkDepth++;
    let inner: string;
    try {
      inner = this.parser.parseInline(tokens);
    } finally {
      state.linkDepth--;
    }
    const url = resolveHref(href, state, env);
    const external = /^https?:\/\//i.test(url);
    return `<a href="${escapeHtml(url)}"${title ? ` title="${escapeHtml(title)}"` : ''}${external ? ' rel="noopener noreferrer"' : ''}>${inner}</a>`;
  }

  override image({ href, title, text }: Tokens.Image) {
    const { state, env } = current();
    const src = resolveAsset(href, state, env);
    const outside = outsideImagePlaceholder(state, src, text);
    if (outside !== undefined) return outside;
    return `<img src="${escapeHtml(src)}" alt="${escapeHtml(text)}"${title ? ` title="${escapeHtml(title)}"` : ''} loading="lazy">`;
  }

  override html({ text }: Tokens.HTML | Tokens.Tag) {
    return escapeHtml(text);
  }
}

const marked = new Marked({ gfm: true, async: false });
marked.setOptions({ tokenizer: new MdxTokenizer(), renderer: new PageRenderer() });
// Extensions, not subclass methods: they run only where their start finds `[^` on a page with definitions.
marked.use({ extensions: footnoteExtensions(() => stack[stack.length - 1]?.state.footnotes) });

function mathSlot(tex: string, display: boolean, where: 'block' | 'inline'): string {
  const { state } = current();
  state.usesMath = true;
  const html = renderMath(tex, display);
  const wrapped = display ? `<div class="c-math c-math--display">${html}</div>` : `<span class="c-math">${html}</span>`;
  return where === 'block' || display ? state.block(wrapped, tex) : state.inline(wrapped, tex);
}

/** A code block's frame: title bar (file name or language) and a copy button run by components.js. */
export function codeFrame(pre: string, label: string, isTitle: boolean, words: ContentStrings): string {
  const head = label
    ? `<span class="c-code__title${isTitle ? '' : ' c-code__title--lang'}">${escapeHtml(label)}</span>`
    : '<span class="c-code__title"></span>';
  return `<div class="c-code" data-code-block><div class="c-code__header">${head}${copyButton(words, words.copyCode)}</div>${pre}</div>`;
}

/**
 * One line of words and plain punctuation: marked would only escape it (in a paragraph, for a
 * block). No markdown character, no `$` (math), no `&` (references), no placeholder of a rendered
 * element, nothing an autolink starts with, and no start that opens a list or a heading. Field
 * descriptions and component texts of API pages are mostly this: a marked call each (17–34 µs,
 * 15–28 per page) for what an escape does. A test checks the output against marked's on random text.
 */
const PLAIN_RE = /^[A-Za-z\u00C0-\u024F][A-Za-z0-9\u00C0-\u024F ,.;:'"()?/%+=-]*$/;

export function plainLine(markdown: string): boolean {
  return PLAIN_RE.test(markdown) && !markdown.endsWith(' ') && !markdown.includes('://') && !/www\./i.test(markdown);
}

export function renderMarkdown(markdown: string, mode: 'block' | 'inline', state: PageState, env: Env): string {
  if (plainLine(markdown)) return mode === 'block' ? `<p>${escapeHtml(markdown)}</p>\n` : escapeHtml(markdown);
  const withCode = codeSpanText(markdown, mode);
  if (withCode !== undefined) return withCode;
  stack.push({ state, env });
  try {
    return mode === 'block' ? (marked.parse(markdown) as string) : (marked.parseInline(markdown) as string);
  } finally {
    stack.pop();
  }
}
