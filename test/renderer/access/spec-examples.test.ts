/**
 * Hand-written examples (`example`, `examples` on media types, schemas and parameters) that hold
 * keys of properties with `x-mint.groups` or enum values `x-mint-enum` restricts (issue 40): with
 * reader access on they are left out of the page's examples, the `.md` copy, the search text and
 * the spec's public copy; with it off every example is shown as written.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ANONYMOUS } from '../../../renderer/access/contract.js';
import { filterMarked } from '../../../renderer/access/filter.js';
import { exportSite, type ExportResult } from '../../../renderer/index.js';
import { sharedRenderPool } from '../../helpers/render-pool.js';
import { tempSite } from '../load/site-fixtures.js';

const ADMIN = { groups: ['admin'] };
const SPEC = {
  openapi: '3.0.3',
  info: { title: 'Examples', version: '1' },
  servers: [{ url: 'https://api.examples.test' }],
  components: {
    schemas: {
      Secret: { type: 'string', 'x-mint': ADMIN },
      User: {
        type: 'object',
        properties: {
          name: { type: 'string' },
          internalnotezq: { $ref: '#/components/schemas/Secret' },
          plan: { type: 'string', enum: ['free', 'enterprisevalxq'], 'x-mint-enum': { enterprisevalxq: ['enterprise'] } },
          tags: { type: 'array', items: { type: 'object', properties: { label: { type: 'string' }, taghiddenrk: { type: 'string', 'x-mint': ADMIN } } } },
        },
        example: { name: 'Annpublicwq', internalnotezq: 'exsecretaq', plan: 'enterprisevalxq', tags: [{ label: 'labelpublicwq', taghiddenrk: 'exsecretfq' }] },
      },
    },
  },
  paths: {
    '/users': {
      post: {
        summary: 'Create user',
        parameters: [
          {
            name: 'filter',
            in: 'query',
            schema: { type: 'object', properties: { q: { type: 'string' }, adminflagpw: { type: 'boolean', 'x-mint': ADMIN } } },
            example: { q: 'qpublicwq', adminflagpw: 'exsecretgq' },
          },
        ],
        requestBody: {
          content: {
            'application/json': {
              schema: { type: 'object', properties: { title: { type: 'string' }, hiddenkeyzv: { type: 'string', 'x-mint': ADMIN } } },
              example: { title: 'titlepublicwq', hiddenkeyzv: 'exsecretbq' },
            },
          },
        },
        responses: {
          '200': {
            description: 'OK',
            content: {
              'application/json': {
                schema: { type: 'object', properties: { id: { type: 'integer' }, adminfieldkw: { type: 'string', 'x-mint': ADMIN } } },
                examples: { one: { value: { id: 4242, adminfieldkw: 'exsecretcq' } }, two: { value: '{"id": 4343, "adminfieldkw": "exsecretdq"}' } },
              },
            },
          },
          '201': { description: 'Created', content: { 'application/json': { schema: { $ref: '#/components/schemas/User' } } } },
        },
      },
    },
  },
};

const RESTRICTED = ['internalnotezq', 'enterprisevalxq', 'taghiddenrk', 'adminflagpw', 'hiddenkeyzv', 'adminfieldkw', 'exsecretaq', 'exsecretbq', 'exsecretcq', 'exsecretdq', 'exsecretfq', 'exsecretgq'];
const PUBLIC = ['Annpublicwq', 'labelpublicwq', 'titlepublicwq', '4242', '4343'];

function site(): string {
  return tempSite({
    'docs.json': JSON.stringify({ name: 'Examples', navigation: { groups: [{ group: 'API', public: true, openapi: 'openapi.json' }] } }),
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
const text = (r: ExportResult, re: RegExp): string => {
  const f = [...r.files.keys()].find((k) => re.test(k));
  if (!f) throw new Error(`no file ${re}`);
  return decoder.decode(r.files.get(f));
};
const PAGE = /create-user\/index\.html$/;

describe('hand-written examples with reader access on', () => {
  it('leaves restricted keys and values out of the page an anonymous reader gets', () => {
    const anon = filterMarked(text(on, PAGE), ANONYMOUS);
    for (const w of RESTRICTED) expect(anon, w).not.toContain(w);
    for (const w of PUBLIC) expect(anon, w).toContain(w);
  });

  it('leaves them out of every other file (.md, search, spec copy, llms-full)', () => {
    const holding = [...on.files].filter(([f, b]) => !PAGE.test(f) && !/\.(png|ico|woff2?)$/.test(f) && RESTRICTED.some((w) => filterMarked(decoder.decode(b), ANONYMOUS).toLowerCase().includes(w.toLowerCase()))).map(([f]) => f);
    expect(holding).toEqual([]);
    const copy = JSON.parse(text(on, /^_assets\/openapi\.[0-9a-f]+\.json$/)) as typeof SPEC;
    expect(copy.components.schemas.User.example).toEqual({ name: 'Annpublicwq', tags: [{ label: 'labelpublicwq' }] });
    expect(copy.paths['/users'].post.requestBody.content['application/json'].example).toEqual({ title: 'titlepublicwq' });
    expect(text(on, /create-user\.md$/)).toContain('titlepublicwq');
  });
});

describe('hand-written examples with reader access off', () => {
  it('shows them as written', () => {
    const page = text(off, PAGE);
    for (const w of ['exsecretaq', 'exsecretbq', 'exsecretcq', 'exsecretdq', 'enterprisevalxq']) expect(page, w).toContain(w);
    expect(text(off, /create-user\.md$/)).toContain('exsecretbq');
  });
});
