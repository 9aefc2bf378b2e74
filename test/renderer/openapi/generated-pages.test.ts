/**
 * API reference from OpenAPI (issue 16, parts 1 and 2): pages generated from specs named in the
 * navigation, operation strings, frontmatter forms, and what each page shows, checked on the
 * exported HTML.
 */
import { describe, expect, it } from 'vitest';
import { searchScopesOf, wholeScopeIndex } from '../../helpers/search-index.js';
import { exportedSite } from './exported-pages.js';
import { NEW_PET_YAML, OLD_30, PETS_31, SWAGGER_20, yaml } from './fixtures.js';


const docs = {
  name: 'Pets',
  theme: 'mint',
  api: { mdx: { server: 'https://fallback.test' } },
  navigation: {
    tabs: [
      { tab: 'Guides', pages: ['index', 'guides/get-pet', 'guides/lower', 'guides/short', 'guides/webhook', 'guides/schema', 'guides/unnamed', 'guides/missing', 'guides/legacy'] },
      { tab: 'API', openapi: 'openapi.yaml' },
      {
        tab: 'Selected',
        openapi: { source: 'old.json', directory: 'v0' },
        groups: [
          { group: 'Things', pages: ['GET /things', 'openapi.yaml POST /pets', 'GET /nowhere'] },
          { group: 'Relics', openapi: ['ancient.json'] },
        ],
      },
    ],
  },
};

const files: Record<string, string> = {
  'docs.json': JSON.stringify(docs),
  'index.mdx': '---\ntitle: Home\n---\nWelcome.\n',
  'openapi.yaml': yaml(PETS_31),
  'schemas/new-pet.yaml': NEW_PET_YAML,
  'old.json': JSON.stringify(OLD_30),
  'ancient.json': JSON.stringify(SWAGGER_20),
  // Named by no config: found because a page names an operation only it has.
  'extra/unlisted.openapi.json': JSON.stringify({ openapi: '3.1.0', info: { title: 'U', version: '1' }, paths: { '/hidden-gem': { delete: { summary: 'Remove gem', responses: { '204': { description: 'Gone' } } } } } }),
  'guides/get-pet.mdx': '---\ntitle: Fetching a pet\nopenapi: "GET /pets/{petId}"\n---\nWords the author wrote.\n',
  'guides/lower.mdx': '---\ntitle: Lower\nopenapi: openapi.yaml get /pets\n---\n',
  'guides/short.mdx': '---\ntitle: Short\nopenapi: "openapi get /admin/keys"\n---\n',
  'guides/webhook.mdx': '---\ntitle: Adopted\nopenapi: "openapi.yaml WEBHOOK pet.adopted"\n---\n',
  'guides/schema.mdx': '---\ntitle: The Pet\nopenapi-schema: Pet\n---\n',
  'guides/unnamed.mdx': '---\ntitle: Gem\nopenapi: delete /hidden-gem\n---\n',
  'guides/missing.mdx': '---\ntitle: Missing\nopenapi: GET /no/such/thing\n---\n',
  'guides/legacy.mdx': '---\ntitle: Legacy setup\ndeprecated: true\n---\nThe old way.\n',
};

const { result, html, text } = exportedSite(files);
const sidebar = (slug: string): string => /<aside class="sidebar"[\s\S]*?<\/aside>/.exec(html(slug))?.[0] ?? '';
const warnings = (code: string): string[] => result().warnings.filter((w) => w.code === code).map((w) => w.message);

describe('pages generated from a navigation spec', () => {
  it('builds one page per operation and webhook, under the tag, titled by x-mint metadata or summary, URL from the summary', () => {
    for (const slug of ['api-reference/pets/list-pets', 'api-reference/pets/create-pet', 'api-reference/pets/get-pet', 'api-reference/admin/admin-keys', 'api-reference/pet_adopted']) {
      expect(result().files.has(`${slug}/index.html`), slug).toBe(true);
    }
    expect(html('api-reference/pets/list-pets')).toMatch(/<h1[^>]*>List pets<\/h1>/);
    expect(html('api-reference/pets/create-pet')).toMatch(/<h1[^>]*>Adopt a pet<\/h1>/);
  });

  it('groups the sidebar by tag (x-group names it) with method badges; x-hidden is built but not listed, x-excluded not built', () => {
    const nav = sidebar('api-reference/pets/list-pets');
    expect(nav).toContain('Pet store');
    expect(nav).toMatch(/List pets<\/span><span class="method-badge method-get">GET<\/span>/);
    expect(nav).toMatch(/Adopt<\/span><span class="method-badge method-post">POST<\/span>/);
    expect(nav).not.toContain('Secret thing');
    // A deprecated operation is labelled beside its title, as Mintlify's openapi-setup page says.
    expect(nav).toMatch(/Get pet<\/span><span class="nav-deprecated">deprecated<\/span><span class="method-badge method-get">GET<\/span>/);
    expect(nav).not.toMatch(/List pets<\/span><span class="nav-deprecated">/);
    expect(result().files.has('api-reference/admin/secret-thing/index.html')).toBe(true);
    expect([...result().files.keys()].some((f) => f.includes('gone'))).toBe(false);
  });

  it('places operation strings of a navigation with {source, directory} under that directory, a spec per group, a spec named per entry', () => {
    expect(result().files.has('v0/list-things/index.html')).toBe(true);
    expect(result().files.has('v0/pets/create-pet/index.html')).toBe(true);
    expect(result().files.has('api-reference/relics/list-relics/index.html')).toBe(true);
    expect(warnings('openapi-operation').join('\n')).toContain('"GET /nowhere"');
  });

  it('builds the operations such a navigation does not list, reachable by URL only, shown in the section that names their spec', () => {
    expect(result().files.has('v0/get-thing/index.html')).toBe(true);
    expect(sidebar('v0/list-things')).not.toContain('Get thing');
    // The unlisted page shows the tab and sidebar of the navigation that names old.json, not the first tab's.
    const page = html('v0/get-thing');
    expect(page).toMatch(/<a class="tab" href="[^"]*" aria-current="true">Selected<\/a>/);
    expect(sidebar('v0/get-thing')).toContain('List things');
    expect(sidebar('v0/get-thing')).not.toContain('aria-current="page"');
    expect(result().manifest.files.some((f) => f.path === 'v0/get-thing/index.html')).toBe(true);
    expect(result().files.get('sitemap.xml') && new TextDecoder().decode(result().files.get('sitemap.xml'))).not.toContain('/v0/get-thing');
  });

  it('shows method, path, auth, parameters of every location, and defaults/constraints', () => {
    const t = text('api-reference/pets/list-pets');
    expect(t).toContain('GET /pets');
    expect(t).toMatch(/Authorizations Authorization string header required Bearer authentication header of the form Bearer <token>/);
    expect(t).toMatch(/Headers X-Trace string header/);
    expect(t).toMatch(/Query Parameters limit integer query default: 20 How many to return Required range: 1 <= x <= 100/);
    expect(t).toMatch(/Cookies session string cookie/);
  });

  it('shows the body per media type with nested, circular, oneOf, anyOf-null, allOf and readOnly/writeOnly fields', () => {
    const body = text('api-reference/pets/create-pet');
    expect(body).toContain('application/json');
    expect(body).toContain('multipart/form-data');
    expect(body).toMatch(/name string body required Maximum string length: 40/);
    expect(body).toMatch(/secret string body write-only/);
    const get = text('api-reference/pets/get-pet');
    expect(get).toMatch(/parent Pet Refers back to Pet \(a circular reference\)/);
    expect(get).toMatch(/nickname string \| null/);
    expect(get).toMatch(/owner object Person Company fullName string vatNumber string/);
    expect(get).toMatch(/record object .*createdAt string<date-time>.*vaccinated boolean/);
    expect(get).toMatch(/id string required read-only/);
    expect(get).toContain('deprecated');
    expect(get).toMatch(/Response 200 404 OK application\/json/);
  });

  it('shows every auth kind: basic, apiKey in header/query/cookie, OAuth2 scopes', () => {
    const t = text('api-reference/admin/admin-keys');
    expect(t).toContain('Basic authentication header of the form Basic <encoded-value>');
    expect(t).toMatch(/X-Api-Key string header required API key sent in the header/);
    expect(t).toMatch(/api_key string query required API key sent in the query string/);
    expect(t).toMatch(/sid string cookie required API key sent in the cookie/);
    expect(t).toMatch(/Required scopes: keys:read, keys:write/);
  });

  it('generates request examples in Mintlify\'s default languages, with server variables filled', () => {
    const h = html('api-reference/pets/list-pets');
    const labels = [...h.matchAll(/role="tab"[^>]*>([^<]+)<\/button>/g)].map((m) => m[1]);
    expect(labels).toEqual(expect.arrayContaining(['cURL', 'Python', 'JavaScript', 'PHP', 'Go', 'Java']));
    expect(text('api-reference/pets/list-pets')).toContain("curl --request GET \\ --url 'https://eu.pets.test/v1/pets?limit=20'");
    expect(h).toContain('c-example--response');
  });

  it('uses x-codeSamples instead of generated examples, x-mint content above the reference, response examples from the spec', () => {
    const t = text('api-reference/pets/create-pet');
    expect(t).toContain('Pets CLI');
    expect(t).toContain('pets create --name Rex');
    expect(t).not.toContain('curl --request POST');
    expect(html('api-reference/pets/create-pet')).toMatch(/c-callout[\s\S]*Adoption is <strong>final<\/strong>[\s\S]*Body/);
    expect(t).toMatch(/Response example 201 \{ "id" ?: "p1", "name" ?: "Rex" \}/);
  });

  it('shows a webhook\'s payload and no request snippet', () => {
    const t = text('api-reference/pet_adopted');
    expect(t).toMatch(/WEBHOOK pet\.adopted/);
    expect(t).toContain('Payload');
    expect(t).not.toContain('curl');
  });

  it('reads OpenAPI 3.0 (nullable, boolean exclusiveMinimum) and Swagger 2.0 (parameter types, host and basePath)', () => {
    expect(text('v0/list-things')).toMatch(/label string \| null/);
    expect(text('v0/list-things')).toMatch(/Required range: 0 < x/);
    const relics = text('api-reference/relics/list-relics');
    expect(relics).toMatch(/era enum<string> query Available options: bronze, iron/);
    expect(relics).toMatch(/age integer<int32>/);
    expect(relics).toContain('https://ancient.test/api/relics');
  });

  it('indexes generated pages for search', () => {
    const index = wholeScopeIndex(result().files, searchScopesOf(result().files)[0]!.key);
    const urls = index.search('vaccinated').map((r) => (r as unknown as { url?: string; id: unknown }).url ?? r.id);
    expect(urls.length).toBeGreaterThan(0);
  });
});

describe('MDX pages that name an operation or a schema', () => {
  it('renders the page content, then the operation (bare METHOD /path found in the config spec)', () => {
    const t = text('guides/get-pet');
    expect(t).toMatch(/GET \/pets\/\{petId\} deprecated Words the author wrote\. .*Path Parameters petId string<uuid> path required/);
  });

  it('labels a page whose frontmatter says deprecated: true beside its title and in the sidebar; an API page keeps its endpoint bar\'s label only', () => {
    expect(html('guides/legacy')).toMatch(/<h1 class="page-title">Legacy setup <span class="page-deprecated">deprecated<\/span><\/h1>/);
    expect(sidebar('guides/legacy')).toMatch(/Legacy setup<\/span><span class="nav-deprecated">deprecated<\/span><\/a>/);
    expect(html('api-reference/pets/get-pet')).not.toContain('page-deprecated');
    expect(html('api-reference/pets/get-pet')).toContain('c-field__badge--deprecated');
  });

  it('accepts lowercase methods, a spec path, a short name and WEBHOOK', () => {
    expect(text('guides/lower')).toContain('Query Parameters limit');
    expect(text('guides/short')).toContain('Required scopes: keys:read, keys:write');
    expect(text('guides/webhook')).toContain('Payload');
  });

  it('shows an openapi-schema page and finds operations in a spec no config names', () => {
    expect(text('guides/schema')).toMatch(/kind enum<string> Available options: dog, cat/);
    expect(text('guides/unnamed')).toMatch(/DELETE \/hidden-gem.*204 Gone/);
  });

  it('warns about an operation no spec has, and the page keeps its header', () => {
    expect(warnings('openapi-operation').join('\n')).toContain('GET /no/such/thing');
    expect(text('guides/missing')).toContain('GET /no/such/thing');
  });
});
