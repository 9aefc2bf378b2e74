/**
 * A per-worker memo keyed by text, bounded by the characters it holds (as counted by `weigh`):
 * past the budget the oldest entries go first. For pure functions of text that versioned and
 * translated sites call again with the same text in every version (highlighted code,
 * renderer/page/code.ts).
 *
 * Tried and dropped for marked's tokens and MDX trees: a versioned page's text differs from its
 * copies in its links (`/v2/…`), so those memos never hit on the bench's versioned site and only
 * held memory.
 */
export interface TextMemo<V> {
  get(key: string): V | undefined;
  set(key: string, value: V): V;
}

export function textMemo<V>(budget: number, weigh: (key: string, value: V) => number = (key) => key.length): TextMemo<V> {
  const entries = new Map<string, V>();
  let held = 0;
  return {
    get: (key) => entries.get(key),
    set(key, value) {
      entries.set(ownCopy(key), value);
      held += weigh(key, value);
      for (const [k, v] of entries) {
        if (held <= budget) break;
        entries.delete(k);
        held -= weigh(k, v);
      }
      return value;
    },
  };
}

/**
 * A flat copy of a string that shares no memory with where it came from. A key made of slices of
 * a page's text (V8 keeps sliced and concatenated strings as views of their parts) would keep the
 * whole text alive while in the memo: measured, a highlight memo of 8 M characters held 137 MB
 * more at the end of a 10,000-page export. Prepending a character makes a concatenation, which
 * V8 flattens into a new string before slicing it: one copy of the characters, UTF-16 units
 * exact (lone surrogates too), nothing of the parent kept; a JSON round trip did the same in
 * 5.7 µs instead of 0.3–0.7 µs for a highlighted block and its key. A test checks the memory.
 */
export function ownCopy(text: string): string {
  return (' ' + text).slice(1);
}
