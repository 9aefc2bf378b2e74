/**
 * Which utility-class names a repository may use, read from its sources the way Tailwind's own
 * `content` scanning does (Mintlify's build runs Tailwind over the repository, not over rendered
 * pages): sources are the truth also for components that run only in the reader's browser.
 * Narrower than Tailwind's extractor on purpose: in Markdown pages only `class`/`className`
 * values count (prose words like "block" or "table" would otherwise each become a rule), while
 * script files (`.jsx`, `.tsx`, `.js`, `.ts`) and pages that declare components contribute every
 * string literal, since class names are often built in variables there. A site's own scripts
 * (`customJs`, often minified bundles) contribute only what they put in a `class` — an HTML
 * string's `class="…"`, `className = …`, `classList.add(…)`, `setAttribute('class', …)` — since
 * their other strings are rarely classes (collectScriptClasses).
 */
import { ownCopy } from '../text-memo.js';

/** `class=` / `className=` followed by a quoted value or a `{…}` expression. */
const CLASS_ATTR_RE = /\bclass(?:Name)?\s*=\s*(?:"([^"]*)"|'([^']*)'|(\{))/g;
/** One string literal on one line, or a template literal (its `${…}` parts dropped later). */
const LITERAL_RE = /"((?:[^"\\\n]|\\.)*)"|'((?:[^'\\\n]|\\.)*)'|`([^`]*)`/g;
const TEMPLATE_HOLE_RE = /\$\{[^}]*\}/g;
/** A page that declares its own component (`export const X = …`, `export function X`). */
const DECLARES_COMPONENT_RE = /^export\s+(?:const|let|function|default)\b/m;
/** The longest `{…}` class expression read; longer ones are read up to here. */
const MAX_EXPRESSION = 4000;
/** Tailwind candidates are printable, no whitespace; very long tokens are data, not classes. */
const TOKEN_RE = /^[!-~]{1,200}$/;
const HAS_LETTER_RE = /[a-z]/i;

const SCRIPT_EXT_RE = /\.(?:jsx|tsx|js|ts|mjs|cjs)$/;
const PAGE_EXT_RE = /\.mdx?$/;

/** Does this repository file take part in class scanning (pages, snippets, component scripts)? */
export function isClassSource(file: string): boolean {
  return PAGE_EXT_RE.test(file) || (SCRIPT_EXT_RE.test(file) && !file.endsWith('.d.ts'));
}

function addTokens(value: string, into: Set<string>): void {
  for (const token of value.replace(TEMPLATE_HOLE_RE, ' ').split(/\s+/)) {
    // A copy: a long token is a slice of the whole file, which the set would otherwise keep alive.
    if (token !== '' && !into.has(token) && TOKEN_RE.test(token) && HAS_LETTER_RE.test(token)) into.add(ownCopy(token));
  }
}

function addLiterals(code: string, into: Set<string>): void {
  for (const m of code.matchAll(LITERAL_RE)) addTokens(m[1] ?? m[2] ?? m[3] ?? '', into);
}

/** The text of a `{…}` expression starting at `open` (the brace), braces balanced, capped. */
function braced(text: string, open: number): string {
  let depth = 0;
  const end = Math.min(text.length, open + MAX_EXPRESSION);
  for (let i = open; i < end; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 123) depth++;
    else if (ch === 125 && --depth === 0) return text.slice(open + 1, i);
  }
  return text.slice(open + 1, end);
}

/**
 * Class values a site script writes into the page: `class="…"` in HTML strings (quotes possibly
 * escaped inside a string), `className = "…"` / `className: "…"`, and the literal arguments of
 * `classList.add/toggle/replace(…)` and `setAttribute("class", …)`.
 */
const SCRIPT_CLASS_RE = /\bclass(?:Name)?\s*[=:]\s*(?:\\?"([^"\\\n]*)|\\?'([^'\\\n]*)|`([^`]*)`)/g;
const SCRIPT_CLASS_CALL_RE = /(?:\bclassList\.(?:add|toggle|replace)\s*\(|\bsetAttribute\(\s*["']class["']\s*,)([^)\n]{0,400})\)/g;

/** Add the classes a site script (`customJs`) sets on the markup it inserts. */
export function collectScriptClasses(text: string, into: Set<string>): void {
  if (!text.includes('class')) return;
  for (const m of text.matchAll(SCRIPT_CLASS_RE)) addTokens(m[1] ?? m[2] ?? m[3] ?? '', into);
  for (const m of text.matchAll(SCRIPT_CLASS_CALL_RE)) addLiterals(m[1] ?? '', into);
}

/** Add the class candidates of one source file to `into`. */
export function collectCandidates(file: string, text: string, into: Set<string>): void {
  if (SCRIPT_EXT_RE.test(file)) {
    addLiterals(text, into);
    return;
  }
  // Most pages carry no class at all: one substring search decides that before any regex runs.
  if (!text.includes('class')) return;
  for (const m of text.matchAll(CLASS_ATTR_RE)) {
    if (m[3] === undefined) addTokens(m[1] ?? m[2] ?? '', into);
    else addLiterals(braced(text, (m.index ?? 0) + m[0].length - 1), into);
  }
  if (DECLARES_COMPONENT_RE.test(text)) addLiterals(text, into);
}
