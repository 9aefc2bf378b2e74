/**
 * A per-worker memo keyed by text, bounded by the characters it holds (as counted by `weigh`):
 * past the budget the oldest entries go first. For pure functions of a page's text that versioned
 * and translated sites call again with the same text in every version (renderer/page: MDX trees,
 * marked's tokens, highlighted code).
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
      entries.set(key, value);
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
