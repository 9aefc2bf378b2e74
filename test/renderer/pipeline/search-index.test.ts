import MiniSearch, { type Options } from 'minisearch';
import { describe, expect, it } from 'vitest';
import { ASCII_SPACE_OR_PUNCTUATION, SPACE_OR_PUNCTUATION } from '../../../renderer/index-stage/partial-index.js';
import { addToPartialIndex, createShardedIndexBuilder, emptyPartialIndex, packPartialIndex } from '../../../renderer/index-stage/search-index.js';
import { wholeScopeIndex } from '../../helpers/search-index.js';
import { SEARCH_INDEX_OPTIONS } from '../../../renderer/search-options.js';
import type { SearchDocument } from '../../../renderer/types.js';

const options = SEARCH_INDEX_OPTIONS as unknown as Options<SearchDocument>;

const docs: SearchDocument[] = [
  { url: '/', title: 'Welcome to Acme', section: 'Start', headings: 'Install \nConfigure', text: 'Acme renders docs. Install it, then configure: threads, cache; cache again!' },
  { url: '/guides/tuning', title: 'Tuning', headings: '', text: 'Threads and the worker pool — tune threads for throughput.' },
  { url: '/api/users', title: 'List users', section: 'API › Users', headings: 'Response', text: 'GET /users returns users (paginated). Ünïcödé wörds too.' },
  { url: '/api/notes', title: 'Create note', section: 'API', headings: 'Body\nResponse', text: 'POST /notes creates a note; notes have a body.' },
  { url: '/symbols', title: 'Symbols $var a+b', headings: 'x|y ~z', text: 'a<b>c ^caret `code` under_score {brace} [bracket] "quote" The the THE tab\tseparated' },
];

/** The split index as the workers and the main thread build it (one scope), in two batches. */
function ours(): Map<string, Uint8Array> {
  const scope = { key: 'all' };
  const builder = createShardedIndexBuilder([scope], () => scope);
  for (const [first, batch] of [[0, docs.slice(0, 2)], [2, docs.slice(2)]] as const) {
    const partial = emptyPartialIndex();
    const slots = new Map<string, number>();
    batch.forEach((d, i) => addToPartialIndex(partial, first + i, d, slots));
    builder.add(packPartialIndex(partial));
  }
  return new Map(builder.finish());
}

describe('search index', () => {
  it('holds, chunks joined, exactly what MiniSearch itself builds', () => {
    const reference = new MiniSearch<SearchDocument>(options);
    reference.addAll(docs);
    const expected = JSON.parse(JSON.stringify(reference)) as Record<string, unknown> & { index: [string, unknown][]; averageFieldLength: number[] };
    const actual = JSON.parse(JSON.stringify(wholeScopeIndex(ours(), 'all'))) as typeof expected;
    const byTerm = (i: [string, unknown][]) => Object.fromEntries(i);
    expect(byTerm(actual.index)).toEqual(byTerm(expected.index));
    for (const key of ['documentCount', 'nextId', 'documentIds', 'fieldIds', 'fieldLength', 'storedFields']) expect(actual[key], key).toEqual(expected[key]);
    actual.averageFieldLength.forEach((v, i) => expect(v).toBeCloseTo(expected.averageFieldLength[i] as number, 10));
  });

  it('splits ASCII text exactly as the Unicode tokenizer does', () => {
    for (let c = 0; c < 128; c++) {
      const text = `a${String.fromCharCode(c)}b`;
      expect(text.split(ASCII_SPACE_OR_PUNCTUATION), `char ${c}`).toEqual(text.split(SPACE_OR_PUNCTUATION));
    }
  });

  it('loads in MiniSearch and answers queries like the reference', () => {
    const loaded = wholeScopeIndex(ours(), 'all');
    const reference = new MiniSearch<SearchDocument>(options);
    reference.addAll(docs);
    for (const q of ['threads', 'cache', 'users', 'wörds', 'note', 'configure', 'the', 'var', 'caret', 'score']) {
      expect(loaded.search(q).map((r) => [r.id, r['title'], r['section']]), q).toEqual(reference.search(q).map((r) => [r.id, r['title'], r['section']]));
    }
    expect(loaded.search('threads')[0]?.id).toBe('/guides/tuning');
  });
});
