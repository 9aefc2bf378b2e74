import MiniSearch, { type Options } from 'minisearch';
import { describe, expect, it } from 'vitest';
import { ASCII_SPACE_OR_PUNCTUATION, SPACE_OR_PUNCTUATION } from '../../../renderer/index-stage/partial-index.js';
import { addToPartialIndex, createSearchIndexBuilder, emptyPartialIndex } from '../../../renderer/index-stage/search-index.js';
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

/** The index as the workers and the main thread build it, split into two batches. */
function ours(): unknown {
  const builder = createSearchIndexBuilder();
  for (const [first, batch] of [[0, docs.slice(0, 2)], [2, docs.slice(2)]] as const) {
    const partial = emptyPartialIndex();
    const slots = new Map<string, number>();
    batch.forEach((d, i) => addToPartialIndex(partial, first + i, d, slots));
    builder.add(partial);
  }
  return JSON.parse(new TextDecoder().decode(builder.finish()));
}

describe('search index', () => {
  it('serialises exactly what MiniSearch itself builds', () => {
    const reference = new MiniSearch<SearchDocument>(options);
    reference.addAll(docs);
    const expected = JSON.parse(JSON.stringify(reference)) as { index: [string, unknown][]; averageFieldLength: number[] };
    const actual = ours() as typeof expected;
    const byTerm = (i: [string, unknown][]) => Object.fromEntries(i);
    expect(byTerm(actual.index)).toEqual(byTerm(expected.index));
    expect({ ...actual, index: undefined, averageFieldLength: undefined }).toEqual({ ...expected, index: undefined, averageFieldLength: undefined });
    actual.averageFieldLength.forEach((v, i) => expect(v).toBeCloseTo(expected.averageFieldLength[i] as number, 10));
  });

  it('splits ASCII text exactly as the Unicode tokenizer does', () => {
    for (let c = 0; c < 128; c++) {
      const text = `a${String.fromCharCode(c)}b`;
      expect(text.split(ASCII_SPACE_OR_PUNCTUATION), `char ${c}`).toEqual(text.split(SPACE_OR_PUNCTUATION));
    }
  });

  it('loads in MiniSearch and answers queries like the reference', () => {
    const loaded = MiniSearch.loadJSON<SearchDocument>(JSON.stringify(ours()), options);
    const reference = new MiniSearch<SearchDocument>(options);
    reference.addAll(docs);
    for (const q of ['threads', 'cache', 'users', 'wörds', 'note', 'configure', 'the', 'var', 'caret', 'score']) {
      expect(loaded.search(q).map((r) => [r.id, r['title'], r['section']]), q).toEqual(reference.search(q).map((r) => [r.id, r['title'], r['section']]));
    }
    expect(loaded.search('threads')[0]?.id).toBe('/guides/tuning');
  });
});
