import type { ChromeStrings } from './chrome-strings.js';
import { CLIENT_ROWS } from './client-strings.js';
import { PLAYGROUND_ROWS } from './playground-strings.js';

/** The words the client scripts write: client-strings.ts plus the two of the first table they reuse. */
const CLIENT_KEYS = ['askAi', 'copied', ...Object.keys(CLIENT_ROWS.en)] as (keyof ChromeStrings)[];
const PLAYGROUND_KEYS = Object.keys(PLAYGROUND_ROWS.en) as (keyof ChromeStrings)[];

const memo = new WeakMap<ChromeStrings, { plain?: string; playground?: string }>();

/**
 * The value of `<html data-strings='…'>`: the client scripts' words in the page's language as JSON,
 * the playground's only on pages that load it, escaped for a single-quoted attribute. Scripts read
 * it with JSON.parse(document.documentElement.getAttribute('data-strings')).
 */
export function pageStringsAttr(t: ChromeStrings, playground: boolean): string {
  let entry = memo.get(t);
  if (!entry) memo.set(t, (entry = {}));
  const key = playground ? 'playground' : 'plain';
  const hit = entry[key];
  if (hit !== undefined) return hit;
  const keys = playground ? [...CLIENT_KEYS, ...PLAYGROUND_KEYS] : CLIENT_KEYS;
  const json = JSON.stringify(Object.fromEntries(keys.map((k) => [k, t[k]])));
  const attr = json.replace(/&/g, '&amp;').replace(/'/g, '&#39;');
  entry[key] = attr;
  return attr;
}
