import type { z } from 'zod';

/**
 * "Did you mean" for an unknown config key: the keys the schema allows where the unknown one
 * sits, and the closest of them when it is a likely typo.
 */

interface Def {
  type: string;
  innerType?: Node;
  in?: Node;
  element?: Node;
  shape?: Record<string, Node>;
}
interface Node {
  _zod: { def: Def };
}

/** Through default/prefault/optional/nullable/pipe wrappers to the schema that does the work. */
function unwrap(node: Node): Node {
  let cur = node;
  for (;;) {
    const def = cur._zod.def;
    const next = def.innerType ?? (def.type === 'pipe' ? def.in : undefined);
    if (!next) return cur;
    cur = next;
  }
}

/** Keys of the object at `path` in the schema (array indexes step into the element); none if it is not an object. */
export function keysAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  let node = unwrap(schema as unknown as Node);
  for (const seg of path) {
    const def = node._zod.def;
    if (def.type === 'array' && def.element) node = unwrap(def.element);
    else if (def.type === 'object' && typeof seg === 'string' && def.shape?.[seg]) node = unwrap(def.shape[seg]);
    else return [];
  }
  const def = node._zod.def;
  return def.type === 'object' ? Object.keys((node as unknown as { shape: Record<string, unknown> }).shape) : [];
}

/** Edit distance with a swap of two neighbours counting one (optimal string alignment), case-insensitive. */
export function editDistance(a: string, b: string): number {
  const s = a.toLowerCase();
  const t = b.toLowerCase();
  const d: number[][] = Array.from({ length: s.length + 1 }, (_, i) => [i, ...Array<number>(t.length).fill(0)]);
  for (let j = 1; j <= t.length; j++) d[0]![j] = j;
  for (let i = 1; i <= s.length; i++) {
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1]) best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[s.length]![t.length]!;
}

/** The closest candidate within two edits (one for words of up to four letters), if any. */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  const limit = word.length <= 4 ? 1 : 2;
  let best: string | undefined;
  let bestDistance = limit + 1;
  for (const c of candidates) {
    const distance = editDistance(word, c);
    if (distance < bestDistance) {
      best = c;
      bestDistance = distance;
    }
  }
  return best;
}
