/**
 * The tab titles of an operation's x-codeSamples (renderer/openapi/snippets.ts sampleTitles): the
 * label, unless samples share it; then the language tells them apart, as in SDK generators'
 * output (livepeer-docs: TypeScript, Go and Python samples all labelled `getAsset`).
 */
import { describe, expect, it } from 'vitest';
import { sampleTitles } from '../../../renderer/openapi/snippets.js';
import { exportedSite, specTabsSite } from './exported-pages.js';

describe('titles of x-codeSamples', () => {
  it('are the labels when each is its own, and the language where a sample has none', () => {
    expect(sampleTitles([{ lang: 'bash', label: 'CLI' }, { lang: 'typescript', label: 'SDK' }, { lang: 'python' }])).toEqual(['CLI', 'SDK', 'Python']);
    expect(sampleTitles([{ lang: 'cURL' }, { lang: 'Python' }, { lang: 'JavaScript' }])).toEqual(['cURL', 'Python', 'JavaScript']);
  });

  it('are the languages when every sample carries the same label (an SDK generator naming each by its operation)', () => {
    expect(sampleTitles([{ lang: 'typescript', label: 'getAsset' }, { lang: 'go', label: 'getAsset' }, { lang: 'python', label: 'getAsset' }])).toEqual(['TypeScript', 'Go', 'Python']);
    // A language the snippet generator does not know keeps its name as written.
    expect(sampleTitles([{ lang: 'elixir', label: 'get' }, { lang: 'go', label: 'get' }])).toEqual(['elixir', 'Go']);
  });

  it('are label and language where some labels repeat (mintlify-docs adding-sdk-examples.mdx), numbered when both repeat', () => {
    expect(
      sampleTitles([
        { lang: 'bash', label: 'List all unwatered plants' },
        { lang: 'javascript', label: 'List all unwatered plants' },
        { lang: 'bash', label: 'List all potted plants' },
        { lang: 'javascript', label: 'List all potted plants' },
        { lang: 'go', label: 'Alone' },
      ]),
    ).toEqual(['List all unwatered plants (cURL)', 'List all unwatered plants (JavaScript)', 'List all potted plants (cURL)', 'List all potted plants (JavaScript)', 'Alone']);
    expect(sampleTitles([{ lang: 'go', label: 'A' }, { lang: 'go', label: 'A' }, { lang: 'go', label: 'B' }])).toEqual(['A (Go)', 'A (Go) 2', 'B']);
  });
});

describe('a page of an operation whose samples share a label', () => {
  const spec = {
    openapi: '3.1.0',
    info: { title: 'Assets', version: '1' },
    servers: [{ url: 'https://api.assets.test' }],
    paths: {
      '/asset/{id}': {
        get: {
          summary: 'Get an asset',
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
          'x-codeSamples': [
            { lang: 'typescript', label: 'getAsset', source: 'await sdk.asset.get("id");' },
            { lang: 'go', label: 'getAsset', source: 'res, err := s.Asset.Get(ctx, "id")' },
            { lang: 'python', label: 'getAsset', source: 'res = s.asset.get(asset_id="id")' },
          ],
          responses: { '200': { description: 'OK' } },
        },
      },
    },
  };
  const { html } = exportedSite(specTabsSite('Assets', [{ tab: 'API', source: 'openapi.json', directory: 'api', doc: spec }]));

  it('titles its request example tabs by language, each over its own code', () => {
    const page = html('api/get-an-asset');
    const example = page.slice(page.indexOf('<aside class="c-example c-example--request"'), page.indexOf('</aside>', page.indexOf('<aside class="c-example c-example--request"')));
    expect([...example.matchAll(/role="tab"[^>]*>([^<]+)<\/button>/g)].map((m) => m[1])).toEqual(['TypeScript', 'Go', 'Python']);
    expect(example).toContain('language-typescript');
    expect(example).toContain('language-go');
    expect(example).toContain('language-python');
  });
});
