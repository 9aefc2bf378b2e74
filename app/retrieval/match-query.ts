/** Common English words that only dilute a question's terms ("how do I…"). */
const STOPWORDS = new Set(
  'a an and are as at be by can do does did for from how i if in is it its me my of on or our should so that the their them then there these this to was we what when where which who why will with you your'.split(' '),
);

/** Terms of one query that reach the index: more add little to a ranking and cost a posting list each. */
export const MAX_QUERY_TERMS = 16;
/** Characters of a query that are read at all. */
export const MAX_QUERY_CHARS = 1000;

/**
 * A reader's free text as an FTS5 MATCH expression: its words (letters and digits, lower-cased,
 * stop words and repeats dropped, at most MAX_QUERY_TERMS), each quoted so that no FTS5 syntax
 * (`NEAR`, `-`, `:`, `^`) in the text is obeyed, joined with OR; a word longer than three
 * characters also matches as a prefix ("webhook" finds "webhooks"). Undefined when nothing is
 * left to look for.
 */
export function matchExpression(query: string): string | undefined {
  const terms: string[] = [];
  for (const m of query.slice(0, MAX_QUERY_CHARS).toLowerCase().matchAll(/[\p{L}\p{N}]+/gu)) {
    const t = m[0];
    if (STOPWORDS.has(t) || terms.includes(t)) continue;
    terms.push(t);
    if (terms.length === MAX_QUERY_TERMS) break;
  }
  if (terms.length === 0) return undefined;
  return terms.map((t) => (t.length > 3 ? `"${t}"*` : `"${t}"`)).join(' OR ');
}
