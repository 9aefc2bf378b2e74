/**
 * Files a spec reaches through an external `$ref` (issue 40): every repository file is in the
 * bundle, so with reader access on each such file is written as its public view (what
 * `x-mint.groups` restricts left out, also through further files), one whose root is restricted is
 * only for its groups, and the spec's own copy is one document with them bundled in. With reader
 * access off every file is copied byte for byte.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { exportSite, type ExportResult } from '../../../renderer/index.js';
import { sharedRenderPool } from '../../helpers/render-pool.js';
import { tempSite } from '../load/site-fixtures.js';

const ADMIN = { groups: ['admin'] };
const FILES = {
  'docs.json': JSON.stringify({ name: 'Split', navigation: { groups: [{ group: 'API', public: true, openapi: 'openapi.json' }] } }),
  'openapi.json': JSON.stringify({
    openapi: '3.0.3',
    info: { title: 'Split', version: '1' },
    paths: { '/users': { get: { summary: 'Get user', responses: { '200': { description: 'OK', content: { 'application/json': { schema: { $ref: 'schemas/user.json' } } } } } } } },
  }),
  'schemas/user.json': JSON.stringify({
    type: 'object',
    properties: { name: { type: 'string', description: 'namepublicwq' }, extsecretzq: { type: 'string', description: 'extdescsecretq', 'x-mint': ADMIN }, vault: { $ref: 'vault.json' } },
    example: { name: 'Ann', extsecretzq: 'exvalsecretq' },
  }),
  'schemas/vault.json': JSON.stringify({ type: 'object', description: 'vaultdescsecretq', 'x-mint': ADMIN, properties: { pin: { type: 'string' } } }),
};
const RESTRICTED = ['extsecretzq', 'extdescsecretq', 'exvalsecretq', 'vaultdescsecretq'];

let source: string;
let on: ExportResult;
let off: ExportResult;
beforeAll(async () => {
  source = tempSite(FILES);
  [on, off] = await Promise.all([exportSite({ sourceDir: source, pool: sharedRenderPool(), readerAccess: true }), exportSite({ sourceDir: source, pool: sharedRenderPool() })]);
}, 60_000);

const decoder = new TextDecoder();
const assetOf = (r: ExportResult, name: string): string => {
  const file = [...r.files.keys()].find((f) => new RegExp(`^_assets/${name}\\.[0-9a-f]+\\.json$`).test(f));
  if (!file) throw new Error(`no ${name} asset`);
  return file;
};
const text = (r: ExportResult, name: string): string => decoder.decode(r.files.get(assetOf(r, name)));

describe('files reached through an external $ref, reader access on', () => {
  it('writes a referenced file as its public view, public', () => {
    const user = text(on, 'schemas/user');
    for (const w of RESTRICTED) expect(user, w).not.toContain(w);
    // Restricted through the file it refers to (vault.json's root has x-mint.groups).
    expect(user).not.toContain('vault');
    expect(JSON.parse(user)).toEqual({ type: 'object', properties: { name: { type: 'string', description: 'namepublicwq' } }, example: { name: 'Ann' } });
    expect(on.manifest.access?.files[assetOf(on, 'schemas/user')]).toBeUndefined();
  });

  it('keeps a file whose root is restricted for its groups only', () => {
    expect(on.manifest.access?.files[assetOf(on, 'schemas/vault')]).toBe('groups:admin');
  });

  it('bundles the referenced files into the spec copy, filtered', () => {
    const spec = text(on, 'openapi');
    expect(spec).toContain('namepublicwq');
    expect(spec).not.toContain('schemas/user.json');
    for (const w of RESTRICTED) expect(spec, w).not.toContain(w);
  });
});

describe('files reached through an external $ref, reader access off', () => {
  it('copies them byte for byte', () => {
    for (const f of ['openapi', 'schemas/user', 'schemas/vault']) expect(text(off, f)).toBe(fs.readFileSync(path.join(source, `${f}.json`), 'utf8'));
    expect(off.manifest.access).toBeUndefined();
  });
});
