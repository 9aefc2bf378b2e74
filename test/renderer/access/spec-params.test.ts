/**
 * `x-mint.groups` on parameters (their own or their schema's) and on the `$ref` target of a
 * property (issue 40): marked in the page, left out of the examples, the `.md` copy, search text
 * search text and the spec's public copy with reader access on; shown to everyone without markers with it off.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ANONYMOUS } from '../../../renderer/access/contract.js';
import { filterMarked } from '../../../renderer/access/filter.js';
import { exportSite, type ExportResult } from '../../../renderer/index.js';
import { sharedRenderPool } from '../../helpers/render-pool.js';
import { tempSite } from '../load/site-fixtures.js';

const SPEC = {
  openapi: '3.0.3',
  info: { title: 'Params', version: '1' },
  servers: [{ url: 'https://api.params.test' }],
  components: {
    schemas: { AdminInfo: { type: 'object', description: 'adminrefdescq', 'x-mint': { groups: ['admin'] }, properties: { level: { type: 'integer' } } } },
  },
  paths: {
    '/items': {
      post: {
        summary: 'Create item',
        parameters: [
          { name: 'pageqpub', in: 'query', schema: { type: 'string' } },
          { name: 'secretqadm', in: 'query', description: 'secretdescadm', 'x-mint': { groups: ['admin'] }, schema: { type: 'string' } },
          { name: 'X-Secret-Hdrzk', in: 'header', schema: { type: 'string', 'x-mint': { groups: ['admin'] } } },
        ],
        requestBody: { content: { 'application/json': { schema: { type: 'object', properties: { title: { type: 'string' }, adminrefpropz: { $ref: '#/components/schemas/AdminInfo' } } } } } },
        responses: { '200': { description: 'OK' } },
      },
    },
  },
};

const RESTRICTED = ['secretqadm', 'secretdescadm', 'X-Secret-Hdrzk', 'adminrefpropz', 'adminrefdescq'];

function site(): string {
  return tempSite({
    'docs.json': JSON.stringify({ name: 'Params', navigation: { groups: [{ group: 'API', public: true, openapi: 'openapi.json' }] } }),
    'openapi.json': JSON.stringify(SPEC),
  });
}

let on: ExportResult;
let off: ExportResult;
beforeAll(async () => {
  const source = site();
  [on, off] = await Promise.all([exportSite({ sourceDir: source, pool: sharedRenderPool(), readerAccess: true }), exportSite({ sourceDir: source, pool: sharedRenderPool() })]);
}, 60_000);

const decoder = new TextDecoder();
const find = (r: ExportResult, re: RegExp): string => {
  const f = [...r.files.keys()].find((k) => re.test(k));
  if (!f) throw new Error(`no file ${re}`);
  return f;
};
const pageOf = (r: ExportResult): string => decoder.decode(r.files.get(find(r, /create-item\/index\.html$/)));

describe('parameters and $ref targets with x-mint.groups', () => {
  it('marks them in the page and drops them for an anonymous reader', () => {
    const page = pageOf(on);
    for (const w of ['secretqadm', 'X-Secret-Hdrzk', 'adminrefpropz']) expect(page, w).toContain(w);
    expect(page).toContain('<!--da:groups%3Aadmin-->');
    const anon = filterMarked(page, ANONYMOUS);
    for (const w of RESTRICTED) expect(anon, w).not.toContain(w);
    expect(anon).toContain('pageqpub');
  });

  it('keeps them out of every other file with reader access on (examples, .md, search shards, spec copy)', () => {
    const page = find(on, /create-item\/index\.html$/);
    const holding = [...on.files].filter(([f, b]) => f !== page && !/\.(png|ico|woff2?)$/.test(f) && RESTRICTED.some((w) => filterMarked(decoder.decode(b), ANONYMOUS).includes(w))).map(([f]) => f);
    expect(holding).toEqual([]);
    expect(decoder.decode(on.files.get(find(on, /^_assets\/openapi\.[0-9a-f]+\.json$/)))).toContain('pageqpub');
  });

  it('indexes the page\'s public words only in its (public) search shard', () => {
    const shards = [...on.files].filter(([f]) => f.startsWith('_search/')).map(([, b]) => decoder.decode(b).toLowerCase());
    expect(shards.some((t) => t.includes('"pageqpub"'))).toBe(true);
    // As terms: the tokenizer splits `X-Secret-Hdrzk` at its hyphens.
    for (const w of ['secretqadm', 'secretdescadm', 'hdrzk', 'adminrefpropz', 'adminrefdescq']) expect(shards.some((t) => t.includes(`"${w}`)), w).toBe(false);
    // Without reader access every reader sees them, so search finds them.
    const offShards = [...off.files].filter(([f]) => f.startsWith('_search/')).map(([, b]) => decoder.decode(b));
    expect(offShards.some((t) => t.includes('"secretqadm"'))).toBe(true);
  });

  it('shows them to everyone without markers with reader access off', () => {
    const page = pageOf(off);
    expect(page).not.toContain('<!--da:');
    for (const w of ['secretqadm', 'X-Secret-Hdrzk', 'adminrefpropz']) expect(page, w).toContain(w);
    const md = decoder.decode(off.files.get(find(off, /create-item\.md$/)));
    expect(md).toContain('secretqadm');
  });
});
