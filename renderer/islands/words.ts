/**
 * The words Mintlify's components say inside running components (client/mintlify.js): the same
 * as the static renderer's for the page's language (i18n/content-strings.ts), so a <Note> in a
 * snippet reads "Hinweis" on a German page as it does in MDX. The sandbox is given them with each
 * render; the browser gets them from a small script per language (`__mintIslands.words({…})`,
 * content-hashed, after the runtime), which English pages do not need: English is the runtime's own.
 */
import type { ContentStrings } from '../i18n/content-strings.js';

const KEYS = ['note', 'info', 'tip', 'warning', 'check', 'danger', 'required', 'deprecated', 'defaultValue', 'show', 'hide', 'properties', 'open'] as const satisfies readonly (keyof ContentStrings)[];

export type IslandWords = Record<(typeof KEYS)[number], string>;

export function islandWords(strings: ContentStrings): IslandWords {
  return Object.fromEntries(KEYS.map((k) => [k, strings[k]])) as IslandWords;
}

/** The browser's words script for a page, or undefined when they are the runtime's English ones. */
export function wordsScript(strings: ContentStrings, english: ContentStrings, hash: (text: string) => string): { bundlePath: string; code: string } | undefined {
  if (KEYS.every((k) => strings[k] === english[k])) return undefined;
  const code = `__mintIslands.words(${JSON.stringify(islandWords(strings))});\n`;
  return { bundlePath: `_static/islands/words.${hash(code)}.js`, code };
}
