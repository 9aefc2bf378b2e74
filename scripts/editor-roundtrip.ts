/**
 * Visual-mode round trip over real pages: every .mdx under the given paths is opened through the
 * visual mode's load → save path with no edits and must come back byte-identical.
 *
 *   node --import tsx scripts/editor-roundtrip.ts /work/shared/corpora/*
 *
 * With --reserialize it also serializes every visual block as if edited (no real change) and
 * counts blocks whose re-parsed mdast differs — what an edit of that block would change beyond
 * the writer's change (informational; the exit code is the no-edit round trip's).
 *
 * Prints per-path counts (identical, refused = not valid MDX, so the visual mode would not open
 * it and the source mode stays, mismatched) and exits 1 on any mismatch.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { checkReserialize, checkRoundTrip } from '../app/editor/visual/roundtrip.js';

function mdxFiles(path: string): string[] {
  if (statSync(path).isFile()) return path.endsWith('.mdx') ? [path] : [];
  const out: string[] = [];
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === '.git') continue;
    const full = join(path, entry.name);
    if (entry.isDirectory()) out.push(...mdxFiles(full));
    else if (entry.isFile() && entry.name.endsWith('.mdx')) out.push(full);
  }
  return out.sort();
}

const reserialize = process.argv.includes('--reserialize');
const paths = process.argv.slice(2).filter((a) => a !== '--reserialize');
const edits = { blocks: 0, differing: 0 };
if (paths.length === 0) {
  console.error('usage: editor-roundtrip <path>...');
  process.exit(2);
}
let mismatches = 0;
const totals = { files: 0, identical: 0, refused: 0, mismatched: 0, blocks: 0, visualBlocks: 0 };
for (const path of paths) {
  const counts = { files: 0, identical: 0, refused: 0, mismatched: 0 };
  for (const file of mdxFiles(path)) {
    counts.files++;
    const source = readFileSync(file, 'utf8');
    const result = checkRoundTrip(source);
    if (reserialize && result.status === 'identical') {
      const r = checkReserialize(source);
      edits.blocks += r.blocks;
      edits.differing += r.differing.length;
      for (const d of r.differing) if (process.env.ROUNDTRIP_VERBOSE) console.log(`reserialize differs ${file} block ${d.index}`);
    }
    if (result.status === 'identical') {
      counts.identical++;
      totals.blocks += result.blocks;
      totals.visualBlocks += result.visualBlocks;
    } else if (result.status === 'refused') {
      counts.refused++;
      if (process.env.ROUNDTRIP_VERBOSE) console.log(`refused ${file}:${result.error.line}:${result.error.column} ${result.error.message}`);
    } else {
      counts.mismatched++;
      console.log(`MISMATCH ${file} (${result.stage} path, first difference at offset ${result.firstDifference})`);
    }
  }
  if (counts.files === 0 && statSync(path).isFile()) continue;
  console.log(`${path}: ${counts.files} files, ${counts.identical} identical, ${counts.refused} refused (not valid MDX), ${counts.mismatched} mismatched`);
  for (const k of ['files', 'identical', 'refused', 'mismatched'] as const) totals[k] += counts[k];
  mismatches += counts.mismatched;
}
console.log(`total: ${totals.files} files, ${totals.identical} identical, ${totals.refused} refused, ${totals.mismatched} mismatched; ${totals.visualBlocks} of ${totals.blocks} top-level blocks of the identical pages open as visual nodes`);
if (reserialize) console.log(`reserialize: ${edits.differing} of ${edits.blocks} visual blocks parse back differently when serialized as edited`);
process.exit(mismatches > 0 ? 1 : 0);
