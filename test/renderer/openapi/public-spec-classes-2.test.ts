/**
 * Classes of problems the second sweep over public specs showed (2026-11-27, second session, see
 * docs/api-reference.md "Sweep over public specs"), each reproduced by a small spec of our own
 * (sweep2-fixtures.ts) and checked on the exported HTML.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { exportSite, type ExportResult } from '../../../renderer/index.js';
import { sharedRenderPool } from '../../helpers/render-pool.js';
import { tempSite } from '../load/site-fixtures.js';
import { exportedSite, pageReaders, specTabsSite } from './exported-pages.js';
import { BLANK_SERVER_30, DRF_30, FILTERS_31, GATEWAY_20, OPTIONAL_AUTH_31, PAGEABLE_30, SHAPES_30, SWASHBUCKLE_30, STRING_EXAMPLES_30, SWAG_20, X_DEFAULT_31 } from './sweep2-fixtures.js';

const files = specTabsSite('Sweep 2', [
  { tab: 'Auth', source: 'auth.json', directory: 'auth', doc: OPTIONAL_AUTH_31 },
  { tab: 'Django', source: 'drf.json', directory: 'drf', doc: DRF_30 },
  { tab: 'Shapes', source: 'shapes.json', directory: 'shapes', doc: SHAPES_30 },
  { tab: 'Shop', source: 'shop.json', directory: 'shop', doc: BLANK_SERVER_30 },
  { tab: 'Swag', source: 'swag.json', directory: 'swag', doc: SWAG_20 },
  { tab: 'Gateway', source: 'gateway.json', directory: 'gateway', doc: GATEWAY_20 },
  { tab: 'Brands', source: 'brands.json', directory: 'brands', doc: STRING_EXAMPLES_30 },
  { tab: 'Prefill', source: 'prefill.json', directory: 'prefill', doc: X_DEFAULT_31 },
  { tab: 'Filters', source: 'filters.json', directory: 'filters', doc: FILTERS_31 },
  { tab: 'Spring', source: 'spring.json', directory: 'spring', doc: PAGEABLE_30 },
  { tab: 'Dotnet', source: 'dotnet.json', directory: 'dotnet', doc: SWASHBUCKLE_30 },
]);

const { result, html, text, curl, responseExample, playgroundOf } = exportedSite(files);

describe('security as generated specs write it', () => {
  it('shows credentials an empty alternative makes optional as optional, in the page and the playground', () => {
    const t = text('auth/get-a-collection');
    expect(t).toMatch(/Authorizations Optional: requests without credentials are accepted too\. Authorization string header Bearer authentication/);
    expect(t).not.toMatch(/Authorization string header required/);
    // The request example still shows how to send them; the playground offers "no credentials".
    expect(curl('auth/get-a-collection')).toContain("--header 'Authorization: Bearer <token>'");
    expect(playgroundOf('auth/get-a-collection').security).toEqual([[{ name: 'HTTPBearer', kind: 'bearer' }], []]);
    // Empty alternative first: the example sends the key all the same.
    expect(curl('auth/read-stats')).toContain("--header 'X-Api-Key: <api-key>'");
    expect(text('auth/read-stats')).toMatch(/X-Api-Key string header API key/);
    expect(playgroundOf('auth/read-stats').security).toEqual([[], [{ name: 'ApiKey', kind: 'apiKey', in: 'header', param: 'X-Api-Key' }]]);
    // An operation that requires them still says so; one whose only alternative is `{}` has no auth.
    expect(text('auth/administer')).toMatch(/Authorizations Authorization string header required/);
    expect(text('auth/health')).not.toContain('Authorizations');
    expect(playgroundOf('auth/health').security).toEqual([]);
  });

  it('lets a security scheme\'s description replace the generated words, as Mintlify documents', () => {
    const t = text('auth/list-keys');
    expect(t).toMatch(/Authorization string header required Your key from the dashboard, sent as Bearer <key>\. Required scopes: keys:read/);
    expect(t).not.toContain('Bearer authentication header of the form');
    expect(html('auth/list-keys')).toContain('<a href="https://auth.test/keys"');
  });
});

describe('schemas as generators write them', () => {
  it('reads choices that each list values (drf-spectacular\'s XEnum, BlankEnum, NullEnum) as one list of options', () => {
    const t = text('drf/add-a-member');
    expect(t).toMatch(/role enum<string> \| null body engineering - Engineering founder - Founder Available options: engineering, founder, ""/);
    expect(t).toMatch(/level enum<integer> \| null body Available options: 1, 2, 3/);
    expect(t).not.toContain('BlankEnum');
    expect(t).not.toContain('NullEnum');
    expect(t).not.toMatch(/role object/);
    expect(curl('drf/add-a-member')).toMatch(/"role": "engineering",\s*"level": 1/);
  });

  it('types a choice field without a type of its own by its choices, not as object', () => {
    const t = text('shapes/chat-completion');
    expect(t).toMatch(/content string \| object\[\] body required string array/);
    expect(t).toMatch(/Response 200 ok application\/json role enum<string> required[^]*content string \| object\[\] required/);
    expect(t).toMatch(/source object body Part/);
    expect(t).not.toMatch(/content object/);
  });

  it('makes a choice field with a null among several choices nullable, without a tab for null', () => {
    const t = text('filters/list-orders');
    expect(t).toMatch(/product_id string \| string\[\] \| null query Filter by product ID\. string array string string<uuid> query The product ID\. array string\[\] query/);
    expect(t).not.toMatch(/null null/);
  });
});


describe('examples written by hand', () => {
  it('reads a JSON example string with trailing commas as its JSON, and shows one that does not parse as written', () => {
    const c = curl('brands/update-brand');
    expect(c).toMatch(/"name": "ابل",\s*"translations": \{\s*"en": \{\s*"name": "Apple",\s*"url": "a,\]"\s*\}\s*\}/);
    expect(c).not.toContain('\\"');
    expect(playgroundOf('brands/update-brand').body?.placeholder).toBe('{\n  "name": "ابل",\n  "translations": {\n    "en": {\n      "name": "Apple",\n      "url": "a,]"\n    }\n  }\n}');
    expect(responseExample('brands/update-brand')).toBe('{ success: true, data: { id: 1 } }');
  });
});

describe('parameters as generators write them', () => {
  it('sends a list inside an exploded form object (Spring\'s Pageable sort) as repeated keys, not JSON', () => {
    expect(curl('spring/user-controller/get-api-users')).toContain("--url 'http://localhost:8080/api/users?page=123&size=123&sort=%3Cstring%3E'");
    expect(playgroundOf('spring/user-controller/get-api-users').params[0]).toMatchObject({ name: 'pageable', shape: 'object', style: 'form', explode: true });
  });
});

describe('bodies as generators write them', () => {
  it('sends application/json where Swashbuckle lists JSON Patch\'s media type first, and keeps the page\'s tabs in order', () => {
    expect(curl('dotnet/todo/post-api-todo')).toContain("--header 'Content-Type: application/json'");
    expect(playgroundOf('dotnet/todo/post-api-todo').body?.type).toBe('application/json');
    expect(text('dotnet/todo/post-api-todo')).toMatch(/Body application\/json-patch\+json application\/json text\/json application\/\*\+json/);
  });
});

describe('servers as exports write them', () => {
  it('skips a blank server URL and repeated ones: examples and the playground use the real server', () => {
    expect(curl('shop/list-brands')).toContain('--url https://api.shop.test/admin/v2/brands');
    expect(html('shop/list-brands')).not.toContain('<code></code>');
    expect(html('shop/list-brands')).not.toContain('c-endpoint__servers');
    expect(playgroundOf('shop/list-brands').servers).toEqual(['https://api.shop.test/admin/v2']);
  });

  it('gives a Swagger 2.0 loopback host without schemes plain HTTP, and leaves WebSocket schemes out', () => {
    expect(curl('swag/get-data-by-state')).toContain("--url 'http://localhost:8080/GetStateData?state=%3Cstring%3E'");
    expect(playgroundOf('swag/get-data-by-state').servers).toEqual(['http://localhost:8080/']);
    expect(curl('gateway/check-an-invoice')).toContain('--url http://node.test:8881/v1/lightning/checkinvoice');
    expect(playgroundOf('gateway/check-an-invoice').servers).toEqual(['http://node.test:8881', 'https://node.test:8881']);
    expect(text('gateway/check-an-invoice')).not.toContain('wss://');
  });

  it('drops the lone `*` a /** */ comment leaves at the start of a generated description', () => {
    const t = text('gateway/check-an-invoice');
    expect(t).toMatch(/Check an invoice Checks whether an invoice is paid\./);
    expect(t).toMatch(/Body application\/json Represents a request to check an invoice\. invoice string body The invoice, BOLT 11 encoded\./);
    expect(html('gateway/check-an-invoice')).not.toContain('<li></li>');
    expect(html('gateway/check-an-invoice')).not.toMatch(/<p>\*/);
  });
});

describe('x-default (Mintlify\'s playground prefill)', () => {
  let prefilled: ExportResult;
  beforeAll(async () => {
    const site = { name: 'Sweep 2', theme: 'mint', api: { examples: { prefill: true } }, navigation: { tabs: [{ tab: 'Prefill', openapi: { source: 'prefill.json', directory: 'prefill' } }] } };
    prefilled = await exportSite({ sourceDir: tempSite({ 'docs.json': JSON.stringify(site), 'prefill.json': JSON.stringify(X_DEFAULT_31) }), pool: sharedRenderPool() });
  }, 60_000);

  it('starts security fields with their x-default always, parameters and body fields with theirs when prefilling', () => {
    // Without prefill: the credentials still start filled in, the rest shows examples as placeholders.
    const plain = playgroundOf('prefill/create-a-report');
    expect(plain.security).toEqual([[{ name: 'apiKey', kind: 'apiKey', in: 'header', param: 'X-API-Key', value: 'your-api-key-here' }], [{ name: 'bearer', kind: 'bearer', value: 'test-token' }]]);
    expect(plain.params[0]).toMatchObject({ name: 'region', placeholder: 'us' });
    expect(plain.body?.placeholder).toContain('"title": "Q1"');
    const req = pageReaders(() => prefilled).playgroundOf('prefill/create-a-report');
    expect(req.params[0]).toMatchObject({ name: 'region', value: 'eu' });
    expect(req.body?.value).toBe('{\n  "title": "My first report",\n  "pages": 1\n}');
    // The page and its request examples keep the schema's own example.
    expect(curl('prefill/create-a-report')).toContain('region=us');
    expect(curl('prefill/create-a-report')).toContain('"title": "Q1"');
    expect(text('prefill/create-a-report')).not.toContain('My first report');
  });
});
