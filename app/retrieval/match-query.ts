import crypto from 'node:crypto';

/** Common English words that only dilute a question's terms ("how do I…"). */
const STOPWORDS = new Set(
  'a an and are as at be by can do does did for from how i if in is it its me my of on or our should so that the their them then there these this to was we what when where which who why will with you your'.split(' '),
);

/** Terms of one query that reach the index: more add little to a ranking and cost a posting list each. */
export const MAX_QUERY_TERMS = 16;
/** Characters of a query that are read at all. */
export const MAX_QUERY_CHARS = 1000;

/**
 * A reader's free text as the words to look for: letters and digits, lower-cased, stop words and
 * repeats dropped, at most MAX_QUERY_TERMS of the first MAX_QUERY_CHARS characters.
 */
export function queryTerms(query: string): string[] {
  const terms: string[] = [];
  for (const m of query.slice(0, MAX_QUERY_CHARS).toLowerCase().matchAll(/[\p{L}\p{N}]+/gu)) {
    const t = m[0];
    if (STOPWORDS.has(t) || terms.includes(t)) continue;
    terms.push(t);
    if (terms.length === MAX_QUERY_TERMS) break;
  }
  return terms;
}

/**
 * Words as an FTS5 MATCH expression: each quoted, so that no FTS5 syntax in the reader's text
 * (`NEAR`, `-`, `:`, `^`) is obeyed, `*` after those to match as a prefix ("webhook" finds
 * "webhooks"), joined with OR. Undefined when there is nothing to look for.
 */
export function matchExpression(terms: readonly { term: string; prefix: boolean }[]): string | undefined {
  if (terms.length === 0) return undefined;
  return terms.map((t) => `"${t.term.replaceAll('"', '""')}"${t.prefix ? '*' : ''}`).join(' OR ');
}

/**
 * The index token that stands for a section's language (`l…`) or version (`v…`): one word of
 * letters and digits whatever the value (`zh-Hans`, `v2.1`), or `lnone`/`vnone` for a section
 * in every scope. Scope is matched inside FTS5 this way, so a query scores only the sections of
 * its language and version instead of every match of the whole site.
 */
export function scopeToken(kind: 'l' | 'v', value: string | null | undefined): string {
  return value === null || value === undefined ? `${kind}none` : `${kind}${crypto.createHash('sha256').update(value).digest('hex').slice(0, 16)}`;
}

/** The MATCH expression for words in scope: `({title heading text} : (words)) AND scope:(l… OR lnone) AND scope:(v… OR vnone)`. */
export function scopedMatch(words: string, scope: { language?: string | undefined; version?: string | undefined }): string {
  // The reader's words match the text columns only: a word cannot pose as a scope token.
  let match = `({title heading text} : (${words}))`;
  if (scope.language !== undefined) match += ` AND scope:(${scopeToken('l', scope.language)} OR lnone)`;
  if (scope.version !== undefined) match += ` AND scope:(${scopeToken('v', scope.version)} OR vnone)`;
  return match;
}
