/**
 * OpenAPI filtering by group (issue 40, create/personalization.mdx "OpenAPI content filtering"):
 * schema properties and `oneOf` variants with `x-mint.groups`, enum values listed in
 * `x-mint-enum`. With reader access on they are wrapped in fragment markers that filterMarked
 * removes for readers outside the groups; with it off they are shown to everyone, without markers,
 * and the extensions are never printed.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ANONYMOUS, type ReaderView } from '../../../renderer/access/contract.js';
import { filterMarked } from '../../../renderer/access/filter.js';
import { exportSite, type ExportResult } from '../../../renderer/index.js';
import { sharedRenderPool } from '../../helpers/render-pool.js';
import { tempSite } from '../load/site-fixtures.js';
import { specTabsSite } from '../openapi/exported-pages.js';

const SPEC = {
  openapi: '3.0.3',
  info: { title: 'Accounts', version: '1' },
  servers: [{ url: 'https://api.accounts.test' }],
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
                  plan: { type: 'string', enum: ['free', 'pro', 'enterprise'], 'x-mint-enum': { pro: ['pro', 'enterprise'], enterprise: ['enterprise'] } },
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
  },
};

const files = specTabsSite('Accounts', [{ tab: 'API', source: 'openapi.json', directory: 'api', doc: SPEC }]);
const PAGE = 'api/create-user/index.html';

let on: ExportResult;
let off: ExportResult;
beforeAll(async () => {
  [on, off] = await Promise.all([
    exportSite({ sourceDir: tempSite(files), pool: sharedRenderPool(), readerAccess: true }),
    exportSite({ sourceDir: tempSite(files), pool: sharedRenderPool() }),
  ]);
}, 60_000);

const html = (r: ExportResult): string => new TextDecoder().decode(r.files.get(PAGE));
const text = (h: string): string => h.replace(/<!--[\s\S]*?-->/g, '').replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
const view = (...groups: string[]): ReaderView => ({ signedIn: true, groups: new Set(groups) });

describe('OpenAPI group filtering', () => {
  it('wraps the restricted property, variant (tab and panel) and enum values in markers with reader access on', () => {
    const page = html(on);
    expect(page).toContain('<!--da:groups%3Aadmin-->');
    // The variant's tab button and its panel each.
    expect(page.split('<!--da:groups%3Aenterprise-->').length - 1).toBeGreaterThanOrEqual(3);
    expect(page).toContain('<!--da:groups%3Aenterprise%2Cpro-->');
    expect(page).not.toContain('x-mint');
  });

  it('shows everything to everyone without markers or extension text with reader access off', () => {
    const page = html(off);
    expect(page).not.toContain('<!--da:');
    expect(page).not.toContain('x-mint');
    const t = text(page);
    for (const word of ['internal_id', 'Backoffice key', 'Enterprise config', 'sso_enabled', 'Standard config', 'enterprise', 'pro']) expect(t).toContain(word);
  });

  it('leaves out internal_id, the enterprise variant and the enterprise enum value for a reader outside the groups', () => {
    for (const v of [ANONYMOUS, view('staff')]) {
      const t = text(filterMarked(html(on), v));
      expect(t).toContain('name');
      expect(t).toContain('Full name');
      expect(t).not.toContain('internal_id');
      expect(t).not.toContain('Backoffice key');
      expect(t).not.toContain('Enterprise config');
      expect(t).not.toContain('sso_enabled');
      expect(t).toContain('Standard config');
      expect(t).toContain('notifications');
      expect(t).toMatch(/Available options: free\s*$|Available options: free /);
      expect(t).not.toMatch(/Available options:[^A-Z]*enterprise/);
    }
  });

  it("keeps the extensions out of the page's Markdown, and with reader access what they restrict", () => {
    const md = (r: ExportResult): string => {
      const file = [...r.files.keys()].find((f) => /^api\/create-user(\/index)?\.md$/.test(f));
      if (!file) throw new Error(`no Markdown for the page: ${[...r.files.keys()].filter((f) => f.endsWith('.md')).join(', ')}`);
      return new TextDecoder().decode(r.files.get(file));
    };
    const plain = md(off);
    expect(plain).toContain('## OpenAPI');
    expect(plain).toContain('internal_id');
    expect(plain).toContain('sso_enabled');
    expect(plain).not.toContain('x-mint');
    const marked = md(on);
    expect(marked).toContain('## OpenAPI');
    expect(marked).toContain('notifications');
    for (const hidden of ['internal_id', 'Backoffice key', 'sso_enabled', 'Enterprise config', 'enterprise', 'x-mint']) expect(marked).not.toContain(hidden);
    expect(marked).toContain('- free');
  });

  it('loads reader.js (playground prefill) on API pages only with reader access on', () => {
    const reader = /<script src="\/_static\/islands\/reader\.[0-9a-f]{10}\.js" defer>/;
    expect(html(on)).toContain('data-playground');
    expect(html(on)).toMatch(reader);
    expect(html(off)).not.toMatch(reader);
    expect([...off.files.keys()].some((f) => f.includes('/reader.'))).toBe(false);
  });

  it('keeps restricted fragments out of every other file (search, llms-full, Markdown) with reader access on', () => {
    const holding = (r: ExportResult, word: string): string[] =>
      // The spec's own copy too: with reader access on it is its public view (spec-copy.test.ts).
      [...r.files].filter(([f, b]) => f !== PAGE && !/\.(png|jpe?g|woff2?|ico)$/.test(f) && Buffer.from(b).toString('utf8').includes(word)).map(([f]) => f);
    // Without reader access the description is searchable (so the check below can fail).
    expect(holding(off, 'Backoffice key').length).toBeGreaterThan(0);
    expect(holding(on, 'Backoffice key')).toEqual([]);
    expect(holding(on, 'sso_enabled')).toEqual([]);
  });

  it('shows each reader what their groups allow', () => {
    const admin = text(filterMarked(html(on), view('admin')));
    expect(admin).toContain('internal_id');
    expect(admin).not.toContain('sso_enabled');
    const pro = text(filterMarked(html(on), view('pro')));
    expect(pro).toMatch(/Available options: free , pro /);
    expect(pro).not.toContain('internal_id');
    const ent = text(filterMarked(html(on), view('enterprise')));
    expect(ent).toMatch(/Available options: free , pro , enterprise /);
    expect(ent).toContain('Enterprise config');
    expect(ent).toContain('sso_enabled');
  });
});
