/**
 * What the retrieval stage's section index (`_retrieval/sections.ndjson`) holds of a page generated
 * from an OpenAPI operation: the request example once, in the first configured language, as plain
 * code, and the response examples; hand-written example panels, on a hand-written page or in a
 * generated page's `x-mint.content`, keep every block (docs/api-reference.md, "Retrieval").
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { exportSite, type ExportResult } from '../../../renderer/index.js';
import { parseSectionIndex } from '../../../renderer/retrieval/section-index.js';
import { RETRIEVAL_INDEX_PATH, type RetrievalSection } from '../../../renderer/retrieval/types.js';
import { sharedRenderPool } from '../../helpers/render-pool.js';
import { tempSite } from '../load/site-fixtures.js';

const HAND_PANEL = ['<RequestExample>', '```bash Shell', 'curl https://hand.test/written && echo "<done>"', '```', '```python Py', 'print("hand written")', '```', '</RequestExample>'].join('\n');

const spec = {
  openapi: '3.1.0',
  info: { title: 'Pets', version: '1' },
  servers: [{ url: 'https://pets.test' }],
  paths: {
    '/pets': {
      post: {
        tags: ['pets'],
        summary: 'Create pet',
        requestBody: { content: { 'application/json': { schema: { type: 'object', properties: { name: { type: 'string', example: 'Rex & <Fido>' } } } } } },
        responses: {
          '201': { description: 'Created', content: { 'application/json': { example: { id: 'p1', name: 'Rex' } } } },
          '404': { description: 'Missing', content: { 'application/json': { examples: { gone: { value: { error: 'gone' } }, never: { value: { error: 'never was' } } } } } },
        },
      },
    },
    '/pets/{id}': {
      get: {
        tags: ['pets'],
        summary: 'Get pet',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        'x-mint': { content: HAND_PANEL },
        responses: { '204': { description: 'Nothing' } },
      },
      delete: {
        tags: ['pets'],
        summary: 'Remove pet',
        'x-codeSamples': [
          { lang: 'bash', label: 'Pets CLI', source: 'pets rm 7\r\npets list' },
          { lang: 'python', source: 'pets.rm(7)' },
        ],
        responses: { '204': { description: 'Gone' } },
      },
    },
  },
  webhooks: { 'pet.born': { post: { summary: 'Pet born', requestBody: { content: { 'application/json': { example: { born: 'Rex' } } } }, responses: { '200': { description: 'OK' } } } } },
};

const docs = {
  name: 'Pets',
  theme: 'mint',
  api: { examples: { languages: ['python', 'curl', 'javascript'] } },
  navigation: { tabs: [{ tab: 'Guides', pages: ['hand'] }, { tab: 'API', openapi: 'openapi.json' }] },
};

let result: ExportResult;
let sections: RetrievalSection[];

beforeAll(async () => {
  const files = {
    'docs.json': JSON.stringify(docs),
    'openapi.json': JSON.stringify(spec),
    'hand.mdx': `---\ntitle: Hand\n---\n## Calling it\n\nWords.\n\n${HAND_PANEL}\n`,
  };
  result = await exportSite({ sourceDir: tempSite(files), pool: sharedRenderPool() });
  sections = parseSectionIndex(new TextDecoder().decode(result.files.get(RETRIEVAL_INDEX_PATH)))?.sections ?? [];
}, 120_000);

/** A page's sections' text, in order. */
const pageText = (path: string): string =>
  sections
    .filter((s) => s.path === path)
    .map((s) => s.text)
    .join('\n');

describe('retrieval sections of generated API pages', () => {
  it('carry the request example once, in the first configured language, as plain code, then the response examples', () => {
    const t = pageText('api-reference/pets/create-pet');
    expect(t).toContain('Request example\nPython\nimport requests\nurl = "https://pets.test/pets"\npayload = { "name": "Rex & <Fido>" }');
    expect(t).not.toContain('curl');
    expect(t).not.toContain('fetch(');
    expect(t.match(/Request example/g)).toHaveLength(1);
    // Code as written, not as its highlighted markup reads (no space put in at every token).
    expect(t).toContain('Response example\n201\n{\n"id": "p1",\n"name": "Rex"\n}\n404 gone\n{\n"error": "gone"\n}\n404 never\n{\n"error": "never was"\n}');
    expect(t.endsWith('"error": "never was"\n}')).toBe(true);
    // The fields are still there, before the examples.
    expect(t.indexOf('name string body')).toBeGreaterThan(-1);
    expect(t.indexOf('name string body')).toBeLessThan(t.indexOf('Request example'));
    // The page itself still shows every language.
    const page = new TextDecoder().decode(result.files.get('api-reference/pets/create-pet/index.html'));
    expect(page).toMatch(/>Python<\/button>.*>cURL<\/button>.*>JavaScript<\/button>/s);
  });

  it("carry the first of an operation's x-codeSamples, line ends as on the page", () => {
    const t = pageText('api-reference/pets/remove-pet');
    expect(t.endsWith('Request example\nPets CLI\npets rm 7\npets list')).toBe(true);
    expect(t).not.toContain('pets.rm');
  });

  it('carry a webhook payload example as its request example', () => {
    expect(pageText('api-reference/pet-born')).toContain('Request example\nPayload\n{\n"born": "Rex"\n}');
  });

  it("keep every block of a hand-written panel in a generated page's content, and the generated one's first language", () => {
    const t = pageText('api-reference/pets/get-pet');
    expect(t).toContain('curl https://hand.test/written && echo "<done>"');
    // Read from its highlighted markup, as on any hand-written page.
    expect(t).toContain('print ( "hand written" )');
    expect(t.match(/Request example/g)).toHaveLength(2);
    expect(t).toContain('Request example\nPython\nimport requests\nurl = "https://pets.test/pets/{id}"');
    expect(t).not.toContain('curl --request');
  });

  it('leave hand-written pages as they were: every block of their example panels', () => {
    const t = pageText('hand');
    expect(t).toContain('Words.\nRequest example\nShell Py\ncurl https://hand.test/written && echo "<done>"\nprint ( "hand written" )');
  });
});
