/**
 * highlight.js with its languages loaded on first use. The full library registers all 193
 * languages at import, about 170 ms of every render worker's start (and of the CLI's); a site
 * uses a handful. A language is loaded with the languages it embeds (`subLanguage`: CSS and
 * JavaScript inside HTML, say), so the markup is exactly the full library's.
 */
import { createRequire } from 'node:module';
import hljs from 'highlight.js/lib/core';
import { HLJS_ALIASES, HLJS_NAMES } from './hljs-languages.js';

const require = createRequire(import.meta.url);
const NAMES = new Set(HLJS_NAMES);
const loaded = new Set<string>();

type LanguageFn = Parameters<typeof hljs.registerLanguage>[1];

/**
 * `nameOrAlias` once highlight.js knows it (a name or an alias: both work for highlighting), loading
 * the language and what it embeds when needed; undefined when highlight.js has no such language.
 */
export function ensureLanguage(nameOrAlias: string): string | undefined {
  const name = NAMES.has(nameOrAlias) ? nameOrAlias : HLJS_ALIASES[nameOrAlias];
  if (name === undefined) return hljs.getLanguage(nameOrAlias) ? nameOrAlias : undefined;
  if (!loaded.has(name)) {
    loaded.add(name);
    const mod = require(`highlight.js/lib/languages/${name}`) as LanguageFn | { default: LanguageFn };
    hljs.registerLanguage(name, typeof mod === 'function' ? mod : mod.default);
    for (const sub of embeddedLanguages(hljs.getLanguage(name))) ensureLanguage(sub);
  }
  return nameOrAlias;
}

/** Every `subLanguage` named anywhere in a language's modes. */
function embeddedLanguages(language: unknown): Set<string> {
  const found = new Set<string>();
  const seen = new Set<object>();
  const visit = (mode: unknown): void => {
    if (!mode || typeof mode !== 'object' || seen.has(mode)) return;
    seen.add(mode);
    const m = mode as Record<string, unknown>;
    const sub = m['subLanguage'];
    if (typeof sub === 'string') found.add(sub);
    else if (Array.isArray(sub)) for (const s of sub) if (typeof s === 'string') found.add(s);
    for (const key of ['contains', 'variants', 'starts', 'ends', 'keywords']) {
      const v = m[key];
      if (Array.isArray(v)) v.forEach(visit);
      else if (key === 'starts' || key === 'ends') visit(v);
    }
  };
  visit(language);
  return found;
}

export { hljs };
