import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportSite, type ExportResult, type RenderPool } from '../../../renderer/index.js';
import { clientSearch, scopeMeta, searchScopesOf, wholeScopeIndex } from '../../helpers/search-index.js';
import { tempSite } from '../load/site-fixtures.js';
import { sharedRenderPool } from '../../helpers/render-pool.js';

/**
 * The split search index, through the export and the real search.js: scoped by language and
 * version, widened on request with labels, and finding what the single index found.
 */

const LANGUAGES = ['en', 'fr'];
const VERSIONS = ['v3', 'v2', 'v1'];
const TOPICS = ['Install', 'Webhooks', 'Billing'];

/** Every language × version has the same three pages (the same words), as versioned docs do. */
function multiSite(): string {
  const files: Record<string, string> = {};
  const languages = LANGUAGES.map((language) => ({
    language,
    versions: VERSIONS.map((version) => ({
      version,
      groups: [
        {
          group: 'Guides',
          pages: TOPICS.map((topic) => {
            const slug = `${language}/${version}/${topic.toLowerCase()}`;
            const word = language === 'fr' ? 'chapitre' : 'chapter';
            files[`${slug}.mdx`] = `---\ntitle: ${topic} ${version}\n---\n\n${topic} ${word} for ${version}: the zephyrine setting lives here.\n`;
            return slug;
          }),
        },
      ],
    })),
  }));
  files['docs.json'] = JSON.stringify({ name: 'Multi', navigation: { languages } });
  return tempSite(files);
}

let pool: RenderPool;
let multi: ExportResult;
let single: ExportResult;

beforeAll(async () => {
  pool = sharedRenderPool(2);
  multi = await exportSite({ sourceDir: multiSite(), pool });
  single = await exportSite({ sourceDir: path.resolve(import.meta.dirname, '../../../example-docs'), pool });
});

afterAll(async () => {
  await pool.close();
});

describe('search index split by language and version', () => {
  it('writes one scope per language × version, and each page names its scope', () => {
    const scopes = searchScopesOf(multi.files);
    expect(scopes.map((s) => s.key)).toEqual(['en--v3', 'en--v2', 'en--v1', 'fr--v3', 'fr--v2', 'fr--v1']);
    expect(scopes[1]).toEqual({ key: 'en--v2', language: 'en', version: 'v2', pages: 3 });
    const page = new TextDecoder().decode(multi.files.get('fr/v1/billing/index.html'));
    expect(page).toMatch(/<html [^>]*data-search-scope="fr--v1"/);
    expect([...multi.files.keys()]).not.toContain('_search/index.json');
  });

  it('searches only the reader’s language and version by default', async () => {
    const search = clientSearch(multi.files, 'en--v2');
    const found = await search.search('webhooks');
    expect(found.results.map((r) => r.url)).toEqual(['/en/v2/webhooks/']);
    expect(found.total).toBe(1);
    expect(found.results[0]).toMatchObject({ title: 'Webhooks v2', scope: 'en--v2' });
    expect(found.results[0]?.label).toBeUndefined();
    expect(search.fetched.every((p) => p.startsWith('_search/en--v2/'))).toBe(true);
  });

  it('widened: a page matched in every version and language comes first from the reader’s scope, the others labelled', async () => {
    const search = clientSearch(multi.files, 'en--v2');
    const found = await search.search('webhooks', { wide: true });
    expect(found.total).toBe(6);
    expect(found.results[0]).toMatchObject({ url: '/en/v2/webhooks/', scope: 'en--v2' });
    expect(found.results[0]?.label).toBeUndefined();
    const others = found.results.slice(1);
    expect(others.map((r) => r.url).sort()).toEqual(['/en/v1/webhooks/', '/en/v3/webhooks/', '/fr/v1/webhooks/', '/fr/v2/webhooks/', '/fr/v3/webhooks/']);
    // Only what differs from the reader's scope: the version for English pages, language (and version) for French ones.
    expect(others.find((r) => r.url === '/en/v3/webhooks/')?.label).toBe('v3');
    expect(others.find((r) => r.url === '/fr/v2/webhooks/')?.label).toBe('fr');
    expect(others.find((r) => r.url === '/fr/v1/webhooks/')?.label).toBe('fr · v1');
  });

  it('widened: the same page in other scopes ranks above weaker matches of the reader’s own scope', async () => {
    const found = await clientSearch(multi.files, 'en--v2').search('webhooks zephyrine', { wide: true, limit: 8 });
    const urls = found.results.map((r) => r.url);
    expect(urls[0]).toBe('/en/v2/webhooks/');
    expect(urls.slice(1, 6).every((u) => u.endsWith('/webhooks/'))).toBe(true);
    expect(found.results.slice(1, 6).every((r) => r.label !== undefined)).toBe(true);
    expect(urls.slice(6)).toEqual(['/en/v2/install/', '/en/v2/billing/']);
  });

  it('a French reader finds French pages first', async () => {
    const found = await clientSearch(multi.files, 'fr--v3').search('chapitre');
    expect(found.results.map((r) => r.url)).toEqual(['/fr/v3/install/', '/fr/v3/webhooks/', '/fr/v3/billing/']);
    expect((await clientSearch(multi.files, 'fr--v3').search('chapter')).total).toBe(0);
  });
});

describe('search quality against the single index', () => {
  // Fixed queries over example-docs: words, prefixes, two-word queries, a typo.
  const QUERIES = ['install', 'config', 'redirect', 'search', 'api', 'theme colors', 'sidebar navigation', 'analytics', 'componnet', 'export bundle', 'snippet', 'docker', 'card', 'quick'];

  it('gives the same top results, in the same order, as the whole index', async () => {
    const [scope] = searchScopesOf(single.files);
    expect(scope?.key).toBe('all');
    const whole = wholeScopeIndex(single.files, 'all');
    const client = clientSearch(single.files, 'all');
    let compared = 0;
    for (const q of QUERIES) {
      const expected = whole.search(q).slice(0, 5).map((r) => r.id as string);
      const got = (await client.search(q, { limit: 5 })).results.map((r) => r.url);
      expect(got, q).toEqual(expected);
      compared += expected.length;
    }
    expect(compared).toBeGreaterThan(30);
  });

  it('fetches a part of the index for a query, not all of it', async () => {
    const meta = scopeMeta(single.files, 'all');
    const client = clientSearch(single.files, 'all');
    await client.search('redirect');
    const chunks = client.fetched.filter((p) => /\/t\.[0-9a-f]+\.json$/.test(p));
    expect(chunks.length).toBeGreaterThan(0);
    expect(chunks.length).toBeLessThan(meta.termFiles.length);
  });
});
