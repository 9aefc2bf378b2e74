/**
 * `<html dir>` for a language tag: right-to-left for the languages written in Arabic, Hebrew,
 * Syriac, Thaana and N'Ko scripts by default (ar, he, fa, ur, …), or for any tag that names one
 * of those scripts (`az-Arab`); a Latin-script subtag (`ku-Latn`) keeps left-to-right.
 */
const RTL_LANGUAGES = new Set(['ar', 'arc', 'ckb', 'dv', 'fa', 'he', 'iw', 'khw', 'ks', 'lrc', 'mzn', 'nqo', 'pnb', 'ps', 'sd', 'syr', 'ug', 'ur', 'yi']);
const RTL_SCRIPTS = new Set(['arab', 'hebr', 'syrc', 'thaa', 'nkoo', 'adlm', 'rohg', 'mand', 'samr']);

export function textDirection(lang: string): 'rtl' | undefined {
  const [primary = '', ...rest] = lang.toLowerCase().split(/[-_]/);
  const script = rest.find((s) => s.length === 4 && /^[a-z]{4}$/.test(s));
  if (script) return RTL_SCRIPTS.has(script) ? 'rtl' : undefined;
  return RTL_LANGUAGES.has(primary) ? 'rtl' : undefined;
}
