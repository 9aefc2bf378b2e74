/**
 * Code blocks, highlighted at build time with highlight.js (the exported site ships no
 * highlighter), with Mintlify's fence meta: ```js title.js {1,3-4} → title bar and marked lines.
 */
import { highlightCanonicalJson } from './json-highlight.js';
import { ensureLanguage, hljs } from './hljs.js';
import { escapeHtml } from './html.js';
import { ownCopy, textMemo } from '../text-memo.js';

export interface FenceInfo {
  lang: string;
  title?: string;
  highlight: Set<number>;
}

const RANGE_RE = /\{([\d,\s-]+)\}/;
const KEY_VALUE_RE = /\b[\w-]+=(?:"[^"]*"|'[^']*'|\S+)/g;
const FLAG_WORDS = new Set(['lines', 'wrap', 'expandable', 'twoslash', 'showLineNumbers', 'noCopy', 'copy']);

/** Language aliases Mintlify pages use that highlight.js knows under another name. */
const ALIASES: Record<string, string> = {
  mdx: 'markdown',
  md: 'markdown',
  sh: 'bash',
  zsh: 'bash',
  shell: 'bash',
  console: 'bash',
  terminal: 'bash',
  jsonc: 'json',
  json5: 'json',
  html: 'xml',
  vue: 'xml',
  svelte: 'xml',
  tf: 'ini',
  hcl: 'ini',
  env: 'bash',
  dotenv: 'bash',
  py: 'python',
  rb: 'ruby',
  rs: 'rust',
  kt: 'kotlin',
  yml: 'yaml',
  text: 'plaintext',
  txt: 'plaintext',
  plain: 'plaintext',
};

export function parseFenceInfo(info: string | undefined): FenceInfo {
  const raw = (info ?? '').trim();
  const highlight = new Set<number>();
  let rest = raw;
  const range = RANGE_RE.exec(rest);
  if (range?.[1]) {
    for (const part of range[1].split(',')) {
      const [a, b] = part.split('-').map((x) => Number.parseInt(x.trim(), 10));
      if (a === undefined || Number.isNaN(a)) continue;
      const end = b === undefined || Number.isNaN(b) ? a : Math.min(b, a + 10_000);
      for (let l = a; l <= end; l++) highlight.add(l);
    }
    rest = rest.replace(RANGE_RE, ' ');
  }
  const titleAttr = /\btitle=(?:"([^"]*)"|'([^']*)')/.exec(rest);
  rest = rest.replace(KEY_VALUE_RE, ' ');
  const words = rest.split(/\s+/).filter((w) => w !== '' && !FLAG_WORDS.has(w));
  const lang = (words.shift() ?? '').toLowerCase();
  const title = titleAttr ? (titleAttr[1] ?? titleAttr[2]) : words.join(' ');
  return title ? { lang, title, highlight } : { lang, highlight };
}

export function languageOf(lang: string): string | undefined {
  if (lang === '') return undefined;
  return ensureLanguage(ALIASES[lang] ?? lang);
}

/**
 * Markup made elsewhere for exact `${lang}\n${code}` pairs (renderer/openapi/snippet-highlight.ts:
 * request examples highlighted once per request shape), consulted first while a page renders.
 */
let known: ReadonlyMap<string, string> | undefined;

export function withKnownHighlights<T>(map: ReadonlyMap<string, string>, fn: () => T): T {
  const outer = known;
  known = map;
  try {
    return fn();
  } finally {
    known = outer;
  }
}

/**
 * highlight.js output by language and code, per worker. Highlighting is a pure function of the two
 * and costs about 1.5 µs a character (a six-line TypeScript block: 250 µs); versioned and
 * translated sites repeat their code blocks verbatim in every version and language (code is not
 * translated), so most blocks of such a site are highlighted once. Bounded by characters held:
 * past the budget the oldest entries go first.
 */
const memo = textMemo<string>(4_000_000, (key, html) => key.length + html.length);

function highlighted(code: string, language: string): string {
  const key = `${language}\n${code}`;
  return memo.get(key) ?? memo.set(key, ownCopy(hljs.highlight(code, { language, ignoreIllegals: true }).value));
}

/** The `<pre><code>` part: highlighted spans, optionally one span per line for marked lines. */
export function highlightCode(code: string, info: FenceInfo): string {
  const lang = languageOf(info.lang);
  const fast = lang === 'json' ? highlightCanonicalJson(code) : known?.get(`${info.lang}\n${code}`);
  const body = fast ?? (lang && lang !== 'plaintext' ? highlighted(code, lang) : escapeHtml(code));
  const lines = info.highlight.size > 0 ? markLines(body, info.highlight) : body;
  const cls = `hljs${lang ? ` language-${lang}` : ''}`;
  // tabindex: a long line makes the block scroll sideways, and a keyboard reader must be able to
  // reach and scroll it (WCAG 2.1.1; axe scrollable-region-focusable).
  return `<pre class="c-code__pre" tabindex="0"><code class="${cls}">${lines}</code></pre>`;
}

const SPAN_TOKEN_RE = /<span[^>]*>|<\/span>|\n/g;

/** Wraps each line in a span (closing and reopening highlight spans that cross line ends). */
function markLines(html: string, marked: Set<number>): string {
  let out = '';
  let line = 1;
  const open: string[] = [];
  let last = 0;
  const lineStart = (): string => `<span class="c-code__line${marked.has(line) ? ' c-code__line--marked' : ''}">${open.join('')}`;
  out += lineStart();
  SPAN_TOKEN_RE.lastIndex = 0;
  for (let m = SPAN_TOKEN_RE.exec(html); m; m = SPAN_TOKEN_RE.exec(html)) {
    out += html.slice(last, m.index);
    last = m.index + m[0].length;
    if (m[0] === '\n') {
      out += '</span>'.repeat(open.length) + '</span>\n';
      line++;
      out += lineStart();
    } else if (m[0] === '</span>') {
      open.pop();
      out += m[0];
    } else {
      open.push(m[0]);
      out += m[0];
    }
  }
  out += html.slice(last) + '</span>'.repeat(open.length) + '</span>';
  return out;
}
