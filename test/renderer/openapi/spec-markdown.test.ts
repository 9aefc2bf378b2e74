/**
 * The Markdown of pages (`<path>.md`, llms.txt, llms-full.txt) and docs.json `markdown`: as on the
 * hosted platform, an API page has its own words, then its operation's part of the spec as YAML
 * (mintlify-docs ai/markdown-export.mdx, "API reference pages"); `markdown.schema: false` leaves
 * the spec out; `markdown.instructions` heads the files as an "Agent Instructions" block.
 */
import jsYaml from 'js-yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { exportSite, type ExportResult } from '../../../renderer/index.js';
import { fragmentYaml } from '../../../renderer/retrieval/api-markdown.js';
import { fragmentDocument, specFragment, type FragmentRef } from '../../../renderer/openapi/spec-fragment.js';
import { sharedRenderPool } from '../../helpers/render-pool.js';
import { tempSite } from '../load/site-fixtures.js';
import { NEW_PET_YAML, PETS_31, yaml } from './fixtures.js';

const LONG = 'A description long enough to be folded over several lines by the YAML writer, which it is when the line passes eighty characters. '.repeat(3);

/** PETS_31 with a schema no operation uses, and long words at several depths of the components. */
const SPEC = {
  ...PETS_31,
  paths: { ...PETS_31.paths, '/reports': { get: { summary: 'Report', description: 'Quotes ````md\nfences```` too.', responses: { '200': { description: 'OK', content: { 'application/json': { schema: { $ref: '#/components/schemas/Report' } } } } } } } },
  components: {
    ...PETS_31.components,
    schemas: {
      ...PETS_31.components.schemas,
      Unused: { type: 'object', description: 'No operation names me.' },
      Report: { type: 'object', description: LONG, properties: { rows: { type: 'array', items: { $ref: '#/components/schemas/Row' } } } },
      Row: { type: 'object', properties: { note: { type: 'string', description: LONG }, deep: { type: 'object', properties: { deeper: { type: 'object', properties: { text: { type: 'string', description: LONG } } } } } } },
    },
  },
};

const site = (extra: Record<string, unknown> = {}): Record<string, string> => ({
  'docs.json': JSON.stringify({ name: 'Pets', theme: 'mint', navigation: { tabs: [{ tab: 'Guides', pages: ['index', 'guides/get-pet'] }, { tab: 'API', openapi: 'openapi.yaml' }] }, ...extra }),
  'index.mdx': '---\ntitle: Home\n---\nWelcome.\n',
  'openapi.yaml': yaml(SPEC),
  'schemas/new-pet.yaml': NEW_PET_YAML,
  'guides/get-pet.mdx': '---\ntitle: Fetching a pet\nopenapi: "GET /pets/{petId}"\n---\nWords the author wrote.\n',
});

function text(result: ExportResult, file: string): string {
  const bytes = result.files.get(file);
  if (!bytes) throw new Error(`no ${file}; markdown files: ${[...result.files.keys()].filter((f) => f.endsWith('.md')).join(', ')}`);
  return Buffer.from(bytes).toString('utf8');
}

/** The fenced YAML of a page's "## OpenAPI" part: its label and the document it parses to. */
function openApiPart(md: string): { label: string; doc: Record<string, any> } {
  const m = /\n## OpenAPI\n\n(`{4,})yaml ([^\n]*)\n([\s\S]*?)\n\1\n?$/.exec(md);
  if (!m) throw new Error(`no OpenAPI part in:\n${md}`);
  return { label: m[2] as string, doc: parse(m[3] as string) as Record<string, any> };
}

describe('the Markdown of API pages', () => {
  let result: ExportResult;
  beforeAll(async () => {
    result = await exportSite({ sourceDir: tempSite(site()), pool: sharedRenderPool(2) });
  }, 60_000);

  it("a generated page carries its operation, the path's parameters and only the components it reaches", () => {
    const md = text(result, 'api-reference/pets/get-pet.md');
    expect(md.startsWith('# Get pet\n\n')).toBe(true);
    const { label, doc } = openApiPart(md);
    expect(label).toBe('openapi.yaml get /pets/{petId}');
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info).toEqual({ title: 'Pets', version: '1' });
    expect(doc.servers).toEqual(PETS_31.servers);
    expect(doc.security).toEqual([{ bearer: [] }]);
    expect(doc.tags).toEqual(PETS_31.tags);
    expect(Object.keys(doc.paths)).toEqual(['/pets/{petId}']);
    expect(Object.keys(doc.paths['/pets/{petId}'])).toEqual(['parameters', 'get']);
    expect(doc.paths['/pets/{petId}'].get).toEqual(PETS_31.paths['/pets/{petId}'].get);
    // Pet refers to itself (parent) and to Base (allOf): both once; nothing else of the document.
    expect(Object.keys(doc.components.schemas)).toEqual(['Pet', 'Base']);
    expect(doc.components.schemas.Pet).toEqual(PETS_31.components.schemas.Pet);
    // The document-wide requirement names `bearer`: the one scheme carried.
    expect(doc.components.securitySchemes).toEqual({ bearer: PETS_31.components.securitySchemes.bearer });
    expect(doc.webhooks).toBeUndefined();
  });

  it("an operation's own security names its schemes; a schema in another file is a component of the part", () => {
    const admin = openApiPart(text(result, 'api-reference/admin/admin-keys.md')).doc;
    expect(Object.keys(admin.components.securitySchemes)).toEqual(['basic', 'key', 'qkey', 'ckey', 'oauth']);
    expect(admin.components.schemas).toBeUndefined();
    const create = openApiPart(text(result, 'api-reference/pets/create-pet.md'));
    // As `redocly bundle` writes a split spec (renderer/openapi/bundle-refs.ts), named after its file.
    expect(create.doc.paths['/pets'].post.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/new-pet' });
    expect(create.doc.components.schemas['new-pet']).toEqual(parse(NEW_PET_YAML));
    // x-mint is the page itself: its content comes first, and the spec part leaves it out.
    expect(create.doc.paths['/pets'].post['x-mint']).toBeUndefined();
    expect(create.doc.paths['/pets'].post['x-codeSamples']).toEqual(PETS_31.paths['/pets'].post['x-codeSamples']);
    const md = text(result, 'api-reference/pets/create-pet.md');
    expect(md.indexOf('<Note>Adoption is **final**.</Note>')).toBeGreaterThan(0);
    expect(md.indexOf('<Note>')).toBeLessThan(md.indexOf('## OpenAPI'));
  });

  it('a webhook is under webhooks, labelled by its name', () => {
    const { label, doc } = openApiPart(text(result, 'api-reference/pet_adopted.md'));
    expect(label).toBe('openapi.yaml webhook pet.adopted');
    expect(doc.paths).toBeUndefined();
    expect(Object.keys(doc.webhooks['pet.adopted'])).toEqual(['post']);
    expect(Object.keys(doc.components.schemas)).toEqual(['Pet', 'Base']);
  });

  it('an MDX page keeps its words first and labels the spec with its frontmatter as written', () => {
    const md = text(result, 'guides/get-pet.md');
    expect(md.startsWith('# Fetching a pet\n\nWords the author wrote.\n\n## OpenAPI\n\n')).toBe(true);
    expect(openApiPart(md).label).toBe('GET /pets/{petId}');
  });

  it('a description quoting a four-backtick fence gets a longer fence', () => {
    const md = text(result, 'api-reference/report.md');
    expect(md).toContain('\n`````yaml openapi.yaml get /reports\n');
    expect(openApiPart(md).doc.paths['/reports'].get.description).toBe('Quotes ````md\nfences```` too.');
    expect(Object.keys(openApiPart(md).doc.components.schemas)).toEqual(['Report', 'Row']);
  });

  it('llms-full.txt carries the same part', () => {
    const full = text(result, 'llms-full.txt');
    expect(full).toContain('# Get pet\nSource: /api-reference/pets/get-pet\n');
    expect(full).toContain('````yaml openapi.yaml get /pets/{petId}\nopenapi: 3.1.0\n');
    expect(full).not.toContain('Unused');
  });
});

describe('markdown settings', () => {
  it('`markdown.schema: false` leaves the spec out: a generated page has its rendered text, and the setting is not reported as ignored', async () => {
    const result = await exportSite({ sourceDir: tempSite(site({ markdown: { schema: false } })), pool: sharedRenderPool(2) });
    const md = text(result, 'api-reference/pets/get-pet.md');
    expect(md).not.toContain('## OpenAPI');
    expect(md).not.toContain('```');
    expect(md).toContain('Fetch one pet.');
    expect(md).toContain('petId');
    expect(text(result, 'guides/get-pet.md')).toBe('# Fetching a pet\n\nWords the author wrote.\n');
    expect(result.warnings.filter((w) => w.code === 'config-ignored')).toEqual([]);
  }, 60_000);
});

describe('markdown.instructions', () => {
  const BLOCK = '> ## Agent Instructions\n> Always cite the API version.\n> Prefer the TypeScript SDK in examples.\n\n';

  it('heads every page\'s Markdown and llms-full.txt once, and follows the title and description in llms.txt', async () => {
    const result = await exportSite({
      sourceDir: tempSite(site({ description: 'Pets, all of them.', markdown: { instructions: ['Always cite the API version.', '  Prefer the TypeScript SDK in examples.  ', ''] } })),
      pool: sharedRenderPool(2),
    });
    expect(text(result, 'index.md')).toBe(`${BLOCK}# Home\n\nWelcome.\n`);
    expect(text(result, 'api-reference/pets/get-pet.md').startsWith(`${BLOCK}# Get pet\n\n`)).toBe(true);
    const full = text(result, 'llms-full.txt');
    expect(full.startsWith(`${BLOCK}# Home\nSource: /\n`)).toBe(true);
    expect(full.split('## Agent Instructions').length).toBe(2);
    expect(text(result, 'llms.txt').startsWith(`# Pets\n\n> Pets, all of them.\n\n${BLOCK}## Docs\n\n`)).toBe(true);
    expect(result.warnings.filter((w) => w.code === 'config-ignored')).toEqual([]);
  }, 60_000);

  it('one string is split at its line breaks; none leaves the files as they were', async () => {
    const one = await exportSite({ sourceDir: tempSite(site({ markdown: { instructions: 'Always cite the API version.\nPrefer the TypeScript SDK in examples.' } })), pool: sharedRenderPool(2) });
    expect(text(one, 'index.md')).toBe(`${BLOCK}# Home\n\nWelcome.\n`);
    const none = await exportSite({ sourceDir: tempSite(site({ markdown: { instructions: '  ' } })), pool: sharedRenderPool(2) });
    expect(text(none, 'index.md')).toBe('# Home\n\nWelcome.\n');
    expect(text(none, 'llms.txt')).not.toContain('Agent Instructions');
  }, 60_000);
});

describe('llms.txt', () => {
  it('lists after the pages the specs they are made from, at their bundle paths, and the navigation\'s external links once each', async () => {
    const navigation = {
      global: { anchors: [{ anchor: 'Community', href: 'https://community.pets.test' }, { anchor: 'Status', href: 'https://status.pets.test' }] },
      tabs: [{ tab: 'Guides', pages: ['index', 'guides/get-pet'] }, { tab: 'API', openapi: 'openapi.yaml' }, { tab: 'Blog', href: 'https://blog.pets.test' }, { tab: 'Forum', href: 'https://community.pets.test' }],
    };
    const files = { ...site(), 'docs.json': JSON.stringify({ name: 'Pets', theme: 'mint', navigation }), 'unused.json': JSON.stringify({ openapi: '3.1.0', info: { title: 'U', version: '1' }, paths: {} }) };
    const result = await exportSite({ sourceDir: tempSite(files), pool: sharedRenderPool(2) });
    const llms = text(result, 'llms.txt');
    const spec = [...result.files.keys()].find((f) => /^_assets\/openapi\.[0-9a-f]+\.yaml$/.test(f));
    expect(spec).toBeDefined();
    expect(llms).toMatch(/\n- \[Get pet\]\(\/api-reference\/pets\/get-pet\.md\)[^\n]*\n/);
    expect(llms.endsWith(`\n## OpenAPI Specs\n\n- [openapi](/${spec})\n\n## Optional\n\n- [Community](https://community.pets.test)\n- [Status](https://status.pets.test)\n- [Blog](https://blog.pets.test)\n`)).toBe(true);
    expect(llms).not.toContain('unused');
    expect(llms).not.toContain('AsyncAPI');
  }, 60_000);
});

describe('a spec that cannot be handed to the render workers', () => {
  it('a YAML alias that makes a cycle: the export goes on, and the page keeps its rendered text', async () => {
    const spec = 'openapi: 3.1.0\ninfo: {title: Loop, version: "1"}\npaths:\n  /loop:\n    get:\n      summary: Loop\n      responses:\n        "200":\n          description: OK\n          content:\n            application/json:\n              schema: &node\n                type: object\n                properties:\n                  next: *node\n';
    const files = { 'docs.json': JSON.stringify({ name: 'L', theme: 'mint', navigation: { tabs: [{ tab: 'API', openapi: 'loop.yaml' }] } }), 'loop.yaml': spec };
    const result = await exportSite({ sourceDir: tempSite(files), pool: sharedRenderPool(2) });
    const md = text(result, 'api-reference/loop.md');
    expect(md.startsWith('# Loop\n\n')).toBe(true);
    expect(md).not.toContain('## OpenAPI');
    expect(md).toContain('next');
  }, 60_000);
});

describe('the YAML of a fragment', () => {
  it('assembled from parts written once per document, it is what js-yaml writes for the whole fragment', () => {
    const doc = JSON.parse(JSON.stringify(SPEC)) as Record<string, unknown>;
    const refs: FragmentRef[] = [];
    for (const [key, item] of Object.entries(SPEC.paths)) for (const method of Object.keys(item).filter((k) => k !== 'parameters')) refs.push({ label: 'x', file: 'f', group: 'paths', key, method });
    refs.push({ label: 'x', file: 'f', group: 'webhooks', key: 'pet.adopted', method: 'post' });
    // Twice over: the second round is written from the memo.
    for (const ref of [...refs, ...refs]) {
      const f = specFragment(doc, ref);
      if (!f) throw new Error(`no fragment for ${ref.key}`);
      const whole = jsYaml.dump(fragmentDocument(doc, f), { noRefs: true, skipInvalid: true });
      expect(fragmentYaml(doc, ref), `${ref.method} ${ref.key}`).toBe(whole);
    }
  });

  it('an operation the document no longer has, or a $ref cycle, gives no fragment or a finite one', () => {
    const doc = JSON.parse(JSON.stringify(SPEC)) as Record<string, unknown>;
    expect(specFragment(doc, { label: 'x', file: 'f', group: 'paths', key: '/nowhere', method: 'get' })).toBeUndefined();
    expect(specFragment(doc, { label: 'x', file: 'f', group: 'paths', key: '/pets', method: 'delete' })).toBeUndefined();
    const cyclic = { openapi: '3.1.0', info: { title: 'C', version: '1' }, paths: { '/a': { get: { responses: { '200': { description: 'OK', content: { 'application/json': { schema: { $ref: '#/components/schemas/A' } } } } } } } }, components: { schemas: { A: { properties: { b: { $ref: '#/components/schemas/B' } } }, B: { properties: { a: { $ref: '#/components/schemas/A' } } } } } };
    const f = specFragment(cyclic, { label: 'x', file: 'f', group: 'paths', key: '/a', method: 'get' });
    expect(f?.components).toEqual([{ kind: 'schemas', names: ['A', 'B'] }]);
  });
});
