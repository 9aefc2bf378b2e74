import type { BuildWarning } from '../types.js';

/** An absolute http(s) or protocol-relative URL inside a script's text. */
const URL_IN_SCRIPT_RE = /(?:https?:)?\/\/[a-z\d](?:[a-z\d-]*[a-z\d])?(?:\.[a-z\d](?:[a-z\d-]*[a-z\d])?)+(?::\d+)?(?:\/[^\s'"`<>()\\]*)?/gi;
const SHOWN = 3;
/** XML namespace names (`http://www.w3.org/2000/svg` in createElementNS) are identifiers, never fetched. */
const NAMESPACE_RE = /^https?:\/\/www\.w3\.org\//i;

/**
 * A repository's own scripts (every `.js` outside snippets, loaded on every page) are copied as
 * they are: code cannot be rewritten safely. What they would fetch from other hosts (chat widgets,
 * analytics, web fonts) cannot load in an air-gapped site, and the appliance's Content-Security-
 * Policy blocks it anyway; one `external-script` warning per script names those addresses so the
 * author knows which parts of it will not work.
 */
export function externalScriptWarning(file: string, source: string): BuildWarning | undefined {
  const seen = new Map<string, number>();
  for (const m of source.matchAll(URL_IN_SCRIPT_RE)) {
    // `//` also opens a JavaScript comment: without a scheme, only a quoted `//host` is a URL.
    const before = source[(m.index ?? 0) - 1] ?? '';
    if (!m[0].startsWith('http') && !/["'`]/.test(before)) continue;
    if (NAMESPACE_RE.test(m[0])) continue;
    if (!seen.has(m[0])) seen.set(m[0], m.index ?? 0);
  }
  if (seen.size === 0) return undefined;
  const urls = [...seen.keys()];
  const first = seen.get(urls[0] as string) ?? 0;
  const line = source.slice(0, first).split('\n').length;
  const shown = urls.slice(0, SHOWN).join(', ') + (urls.length > SHOWN ? ` and ${urls.length - SHOWN} more` : '');
  return {
    code: 'external-script',
    message: `This script refers to ${shown}: whatever it loads from there will not load in an air-gapped site (the appliance's Content-Security-Policy blocks it)`,
    file,
    line,
  };
}
