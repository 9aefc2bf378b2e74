/**
 * The spec files the bundle carries (issue 40): with reader access on, the copy a reader downloads
 * (llms.txt, "Download spec") is the spec's public view: what `x-mint.groups` / `x-mint-enum`
 * restrict, operations only some readers may see and the extensions are left out. With reader
 * access off the file is copied byte for byte.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ANONYMOUS } from '../../../renderer/access/contract.js';
import { filterMarked } from '../../../renderer/access/filter.js';
import { exportSite, type ExportResult } from '../../../renderer/index.js';
import { sharedRenderPool } from '../../helpers/render-pool.js';
import { tempSite } from '../load/site-fixtures.js';

const PUBLIC_SPEC = {
  openapi: '3.0.3',
  info: { title: 'Accounts', version: '1' },
  paths: {
    '/users': {
      post: {
        summary: 'Create user',
        requestBody: {
          content: {
            'application/json': {
              schema: {
                type: 'object',
                properties: {
                  name: { type: 'string', description: 'Full name' },
                  internal_id: { type: 'string', description: 'Backoffice key', 'x-mint': { groups: ['admin'] } },
                  plan: { type: 'string', enum: ['free', 'pro', 'enterprisevalq'], 'x-mint-enum': { enterprisevalq: ['enterprise'] } },
                  config: {
                    oneOf: [
                      { title: 'Enterprise config', type: 'object', 'x-mint': { groups: ['enterprise'] }, properties: { sso_enabled: { type: 'boolean' } } },
                      { title: 'Standard config', type: 'object', properties: { notifications: { type: 'boolean' } } },
                    ],
                  },
                },
              },
            },
          },
        },
        responses: { '200': { description: 'OK' } },
      },
    },
    '/admin/reset': { post: { summary: 'Reset everything', description: 'resetadminwpl words', 'x-mint': { groups: ['admin'] }, responses: { '204': { description: 'Done' } } } },
  },
};

const MEMBER_SPEC = {
  openapi: '3.0.3',
  info: { title: 'Members', version: '1' },
  paths: { '/members': { get: { summary: 'List members', description: 'memberspecqzt words', responses: { '200': { description: 'OK' } } } } },
};

function site(): string {
  return tempSite({
    'docs.json': JSON.stringify({
      name: 'Spec copies',
      navigation: {
        groups: [
          { group: 'Start', public: true, pages: ['index'] },
          { group: 'API', public: true, openapi: 'openapi.json' },
          { group: 'Members', openapi: 'members.json' },
        ],
      },
    }),
    'index.mdx': '---\ntitle: Home\n---\nWelcome.\n',
    'openapi.json': JSON.stringify(PUBLIC_SPEC),
    'members.json': JSON.stringify(MEMBER_SPEC),
  });
}

let source: string;
let on: ExportResult;
let off: ExportResult;
beforeAll(async () => {
  source = site();
  [on, off] = await Promise.all([exportSite({ sourceDir: source, pool: sharedRenderPool(), readerAccess: true }), exportSite({ sourceDir: source, pool: sharedRenderPool() })]);
}, 60_000);

const decoder = new TextDecoder();
const asset = (r: ExportResult, name: string): string => {
  const file = [...r.files.keys()].find((f) => new RegExp(`^_assets/${name}\\.[0-9a-f]+\\.json$`).test(f));
  if (!file) throw new Error(`no ${name} asset`);
  return file;
};

describe('spec files with reader access on', () => {
  it('writes a spec that backs public pages as its public view, public', () => {
    const file = asset(on, 'openapi');
    const text = decoder.decode(on.files.get(file));
    const doc = JSON.parse(text) as typeof PUBLIC_SPEC;
    for (const word of ['internal_id', 'Backoffice key', 'enterprisevalq', 'Enterprise config', 'sso_enabled', 'resetadminwpl', 'x-mint']) expect(text, word).not.toContain(word);
    expect(Object.keys(doc.paths)).toEqual(['/users']);
    const schema = doc.paths['/users'].post.requestBody.content['application/json'].schema;
    expect(Object.keys(schema.properties)).toEqual(['name', 'plan', 'config']);
    expect(schema.properties.plan.enum).toEqual(['free', 'pro']);
    expect(schema.properties.config.oneOf.map((v) => v.title)).toEqual(['Standard config']);
    expect(on.manifest.access?.files[file]).toBeUndefined();
    // llms.txt lists the same file to anonymous readers.
    const llms = filterMarked(decoder.decode(on.files.get('llms.txt')), ANONYMOUS);
    expect(llms).toContain(`/${file})`);
    expect(llms).not.toContain(`/${asset(on, 'members')})`);
  });

  it('keeps a spec behind restricted pages only for their readers', () => {
    const file = asset(on, 'members');
    expect(on.manifest.access?.files[file]).toBe('signed-in');
    expect(decoder.decode(on.files.get(file))).toContain('memberspecqzt');
  });
});

describe('spec files with reader access off', () => {
  it('copies each spec byte for byte', () => {
    expect(decoder.decode(off.files.get(asset(off, 'openapi')))).toBe(fs.readFileSync(path.join(source, 'openapi.json'), 'utf8'));
    expect(decoder.decode(off.files.get(asset(off, 'members')))).toBe(fs.readFileSync(path.join(source, 'members.json'), 'utf8'));
  });
});
