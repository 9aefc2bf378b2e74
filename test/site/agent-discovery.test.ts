/**
 * The site listener's answers for AI tools, as the hosted platform gives them
 * (app/site/agent-discovery.ts): a page asked for as Markdown, the llms.txt links on every page,
 * and llms.txt / llms-full.txt under /.well-known.
 */
import supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wantsMarkdown } from '../../app/site/agent-discovery.js';
import { createTestAppliance, type TestAppliance } from '../helpers/appliance.js';
import { sampleSite, writeFile, zipBundle } from '../loader/helpers/bundle.js';
import { fastLoader, listen, siteFeature } from './helpers.js';

const files: Record<string, string | Buffer> = {
  ...sampleSite('v1'),
  'index.md': '# Home\n\nWelcome.\n',
  // Long enough to be worth compressing, as the page is.
  'guides/intro.md': `# Intro\n\n${'Install the thing. '.repeat(200)}\n`,
  'llms.txt': '# Site\n\n## Docs\n\n- [Intro](/guides/intro.md)\n',
  'llms-full.txt': '# Intro\nSource: /guides/intro\n\nInstall the thing.\n',
};

describe('what the site listener answers AI tools', () => {
  let t: TestAppliance;
  let close: () => Promise<void>;

  beforeAll(async () => {
    t = createTestAppliance({ config: { staticExport: { enabled: true, bundleUrl: 'placeholder', ...fastLoader } } });
    const zip = writeFile(t.stateDir, 'bundles/v1.zip', zipBundle(files, 'v1'));
    await t.start();
    await siteFeature(t.features).reload({ ...t.config, staticExport: { ...t.config.staticExport, bundleUrl: zip } });
    const server = await listen(t.site);
    close = async () => {
      await server.close();
      await t.close();
    };
  });
  afterAll(() => close());

  it('answers a page URL with its Markdown when the client prefers Markdown, in every URL form', async () => {
    for (const url of ['/guides/intro', '/guides/intro.html', '/guides/intro?x=1']) {
      const res = await supertest(t.site).get(url).set('Accept', 'text/markdown').expect(200);
      expect(res.headers['content-type'], url).toBe('text/markdown; charset=utf-8');
      expect(res.text, url).toBe(files['guides/intro.md']);
      expect(res.headers['vary'], url).toBe('Accept, Accept-Encoding');
    }
    const home = await supertest(t.site).get('/').set('Accept', 'text/plain').expect(200);
    expect(home.text).toBe(files['index.md']);
    // Too small to compress: it varies by Accept alone.
    expect(home.headers['vary']).toBe('Accept');
    const preferred = await supertest(t.site).get('/guides/intro').set('Accept', 'text/markdown, text/html;q=0.5').expect(200);
    expect(preferred.text).toBe(files['guides/intro.md']);
  });

  it('answers with HTML when HTML is preferred or the page has no Markdown, and says the answer varies', async () => {
    const browser = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';
    for (const accept of [browser, '*/*', 'text/html, text/markdown;q=0.5', 'text/markdown;q=0']) {
      const res = await supertest(t.site).get('/guides/intro').set('Accept', accept).expect(200);
      expect(res.text, accept).toBe(files['guides/intro.html']);
      expect(res.headers['vary'], accept).toBe('Accept, Accept-Encoding');
    }
    // guides/index.html has no guides.md beside it.
    const noMarkdown = await supertest(t.site).get('/guides/').set('Accept', 'text/markdown').expect(200);
    expect(noMarkdown.text).toBe(files['guides/index.html']);
    // Not a page: the asset itself, whatever the client asks for.
    const css = await supertest(t.site).get('/_static/site.3f2a9c1b.css').set('Accept', 'text/markdown').expect(200);
    expect(css.headers['content-type']).toMatch(/^text\/css/);
    expect(css.headers['vary']).toBe('Accept-Encoding');
    await supertest(t.site).get('/no/such/page').set('Accept', 'text/markdown').expect(404);
  });

  it('a conditional request for the Markdown is answered from its own validator', async () => {
    const first = await supertest(t.site).get('/guides/intro').set('Accept', 'text/markdown').set('Accept-Encoding', 'identity').expect(200);
    const html = await supertest(t.site).get('/guides/intro').set('Accept-Encoding', 'identity').expect(200);
    expect(first.headers.etag).not.toBe(html.headers.etag);
    await supertest(t.site).get('/guides/intro').set('Accept', 'text/markdown').set('Accept-Encoding', 'identity').set('If-None-Match', first.headers.etag as string).expect(304);
  });

  it('every page answer advertises llms.txt and llms-full.txt, on the full and the in-memory path alike', async () => {
    for (let i = 0; i < 3; i++) {
      for (const enc of ['identity', 'gzip', 'br']) {
        const res = await supertest(t.site).get('/guides/intro').set('Accept-Encoding', enc).expect(200);
        expect(res.headers['link'], `${i} ${enc}`).toBe('</llms.txt>; rel="llms-txt", </llms-full.txt>; rel="llms-full-txt"');
        expect(res.headers['x-llms-txt'], `${i} ${enc}`).toBe('/llms.txt');
      }
    }
    const css = await supertest(t.site).get('/_static/site.3f2a9c1b.css').expect(200);
    expect(css.headers['link']).toBeUndefined();
    const md = await supertest(t.site).get('/guides/intro.md').expect(200);
    expect(md.headers['link']).toBeUndefined();
    expect(md.headers['vary']).toBe('Accept, Accept-Encoding');
  });

  it('serves llms.txt and llms-full.txt under /.well-known too', async () => {
    expect((await supertest(t.site).get('/.well-known/llms.txt').expect(200)).text).toBe(files['llms.txt']);
    expect((await supertest(t.site).get('/.well-known/llms-full.txt').expect(200)).text).toBe(files['llms-full.txt']);
    await supertest(t.site).get('/.well-known/other.txt').expect(404);
  });
});

describe('wantsMarkdown', () => {
  it('reads the Accept header by quality, HTML winning ties and wildcards standing in for it', () => {
    expect(wantsMarkdown(undefined)).toBe(false);
    expect(wantsMarkdown('text/markdown')).toBe(true);
    expect(wantsMarkdown('text/plain')).toBe(true);
    expect(wantsMarkdown('TEXT/Markdown; charset=utf-8')).toBe(true);
    expect(wantsMarkdown('text/markdown; charset=utf-8')).toBe(true);
    expect(wantsMarkdown('text/markdown;q=0.9, text/html')).toBe(false);
    expect(wantsMarkdown('text/markdown, text/html')).toBe(false);
    expect(wantsMarkdown('text/markdown, */*;q=0.1')).toBe(true);
    expect(wantsMarkdown('text/markdown;q=0.5, text/*;q=0.6')).toBe(false);
    expect(wantsMarkdown('text/markdown;q=abc')).toBe(false);
    expect(wantsMarkdown(['text/markdown'])).toBe(false);
  });
});
