import { applyPatch, structuredPatch } from 'diff';

/**
 * The conflict dialog's "Merge both": the writer's edit (base → mine) applied on top of the
 * version that was saved meanwhile (theirs), as `git merge` would for changes in different parts
 * of the file. Undefined when both changed the same lines or lines next to each other (the patch's
 * context no longer matches): the writer then keeps, takes or branches off, as before. The result
 * is put in the editor for review, never saved unseen.
 */
export function mergeEdits(base: string, mine: string, theirs: string): string | undefined {
  if (mine === base) return theirs;
  if (theirs === base || theirs === mine) return mine;
  const patch = structuredPatch('file', 'file', base, mine, '', '', { context: 2 });
  const merged = applyPatch(theirs, patch, { fuzzFactor: 0 });
  return merged === false ? undefined : merged;
}
