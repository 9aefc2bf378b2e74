/**
 * The auth inputs of hand-written API pages' playground (issue 39 class 4): `api.mdx.auth` in
 * docs.json, `api.auth` in mint.json, and a page's own frontmatter `authMethod` (bearer, basic,
 * key, cobo, none), which overrides the site's (Mintlify's api-playground/mdx-setup page).
 */
import { describe, expect, it } from 'vitest';
import type { PlaygroundRequest } from '../../../renderer/openapi/playground.js';
import { exportedSite } from './exported-pages.js';

const page = (title: string, auth?: string): string => `---\ntitle: ${title}\napi: POST /v1/messages\n${auth ? `authMethod: "${auth}"\n` : ''}---\n<ParamField body="text" type="string">Text</ParamField>\n`;
const pages = { 'site.mdx': page('Site'), 'bearer.mdx': page('Bearer', 'bearer'), 'basic.mdx': page('Basic', 'basic'), 'key.mdx': page('Key', 'key'), 'cobo.mdx': page('Cobo', 'cobo'), 'none.mdx': page('None', 'none') };
const nav = ['index', ...Object.keys(pages).map((f) => f.replace(/\.mdx$/, ''))];
const home = { 'index.mdx': '---\ntitle: Home\n---\nWelcome.\n' };

const docsJson = exportedSite({
  'docs.json': JSON.stringify({ name: 'Auth', theme: 'mint', api: { mdx: { server: 'https://api.acme.test', auth: { method: 'key', name: 'x-api-key' } } }, navigation: { pages: nav } }),
  ...home,
  ...pages,
});
const noSiteAuth = exportedSite({
  'docs.json': JSON.stringify({ name: 'Auth', theme: 'mint', api: { mdx: { server: 'https://api.acme.test' }, playground: { display: 'interactive', proxy: false } }, navigation: { pages: nav } }),
  ...home,
  ...pages,
});
const mintJson = exportedSite({
  'mint.json': JSON.stringify({ name: 'Legacy', api: { baseUrl: 'https://legacy.acme.test', auth: { method: 'bearer' } }, navigation: [{ group: 'API', pages: nav }] }),
  ...home,
  ...pages,
});
const mintHidden = exportedSite({
  'mint.json': JSON.stringify({ name: 'Legacy', api: { baseUrl: 'https://legacy.acme.test', playground: { mode: 'hide' } }, navigation: [{ group: 'API', pages: nav }] }),
  ...home,
  ...pages,
});

const auth = (req: PlaygroundRequest): string[][] => req.security.map((alt) => alt.map((s) => (s.kind === 'apiKey' ? `apiKey:${s.in}:${s.param}` : s.kind)));

describe('auth on hand-written API pages', () => {
  it("uses docs.json's api.mdx.auth unless the page's authMethod says otherwise", () => {
    expect(auth(docsJson.playgroundOf('site'))).toEqual([['apiKey:header:x-api-key']]);
    expect(auth(docsJson.playgroundOf('bearer'))).toEqual([['bearer']]);
    expect(auth(docsJson.playgroundOf('basic'))).toEqual([['basic']]);
    expect(auth(docsJson.playgroundOf('key'))).toEqual([['apiKey:header:x-api-key']]);
    // A signing scheme asks for nothing the reader can type; `none` turns the site's auth off.
    expect(auth(docsJson.playgroundOf('cobo'))).toEqual([]);
    expect(auth(docsJson.playgroundOf('none'))).toEqual([]);
  });

  it('gives a page its authMethod when the site sets no auth', () => {
    // api.playground is applied, so not reported as a setting the appliance ignores.
    expect(noSiteAuth.result().warnings.filter((w) => w.code === 'config-ignored')).toEqual([]);
    expect(auth(noSiteAuth.playgroundOf('site'))).toEqual([]);
    expect(auth(noSiteAuth.playgroundOf('bearer'))).toEqual([['bearer']]);
    expect(auth(noSiteAuth.playgroundOf('basic'))).toEqual([['basic']]);
    expect(auth(noSiteAuth.playgroundOf('key'))).toEqual([['apiKey:header:Authorization']]);
  });

  it("reads mint.json's api.auth, api.baseUrl and api.playground.mode", () => {
    const site = mintJson.playgroundOf('site');
    expect(auth(site)).toEqual([['bearer']]);
    expect(site.servers).toEqual(['https://legacy.acme.test']);
    expect(auth(mintJson.playgroundOf('basic'))).toEqual([['basic']]);
    expect(auth(mintJson.playgroundOf('none'))).toEqual([]);
    // `hide` is docs.json's `none`: no playground at all.
    expect(mintHidden.html('site')).not.toContain('data-playground');
  });
});
