/**
 * Every exported HTML document carries the site's Content-Security-Policy as a meta (issue 39
 * class 10): a bundle on any static host keeps the appliance's policy, minus what only a header
 * can carry; and the bundle holds the stand-in that tells the page scripts no appliance is there.
 */
import { parseDocument } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SITE_CSP, metaPolicy, withConnectOrigins } from '../../../renderer/csp.js';
import { exportSite } from '../../../renderer/index.js';
import { parseConfig } from '../../../config/load.js';
import { siteCsp } from '../../../app/site/site-csp.js';
import { tempSite } from '../load/site-fixtures.js';
import { elements } from '../html-check.js';
import { sharedRenderPool } from '../../helpers/render-pool.js';

const site = (): string =>
  tempSite({
    'docs.json': JSON.stringify({ name: 'x', navigation: { pages: ['index', 'a'] }, redirects: [{ source: '/old', destination: '/a' }] }),
    'index.mdx': '# home',
    'a.mdx': '# a',
  });

const metaOf = (html: string): string[] =>
  elements(parseDocument(html).children)
    .filter((m) => m.name === 'meta' && m.attribs['http-equiv']?.toLowerCase() === 'content-security-policy')
    .map((m) => m.attribs['content'] ?? '');

describe('the Content-Security-Policy of exported pages', () => {
  it('is the policy given, without the directives a meta cannot carry, in every HTML file', async () => {
    const policy = "default-src 'self'; connect-src 'self' https://api.acme.test; frame-ancestors 'none'; report-uri /csp; sandbox allow-scripts; img-src 'self' data:";
    const result = await exportSite({ sourceDir: site(), pool: sharedRenderPool(), contentSecurityPolicy: policy });
    const html = [...result.files.keys()].filter((f) => f.endsWith('.html')).sort();
    expect(html).toEqual(['404.html', 'a/index.html', 'index.html', 'old/index.html']);
    for (const f of html) {
      expect(metaOf(new TextDecoder().decode(result.files.get(f))), f).toEqual(["default-src 'self'; connect-src 'self' https://api.acme.test; img-src 'self' data:"]);
    }
  });

  it("is the appliance's default policy when none is given, and the bundle holds the appliance stand-in", async () => {
    const result = await exportSite({ sourceDir: site(), pool: sharedRenderPool() });
    expect(metaOf(new TextDecoder().decode(result.files.get('a/index.html')))).toEqual([metaPolicy(DEFAULT_SITE_CSP)]);
    expect(metaPolicy(DEFAULT_SITE_CSP)).not.toContain('frame-ancestors');
    expect(JSON.parse(new TextDecoder().decode(result.files.get('_/assistant')))).toEqual({ enabled: false, mcp: null, appliance: false });
  });

  it("is what the site listener sends for the project: the operator's policy plus its playground origins", () => {
    const id = '0123456789abcdef01234567';
    const config = parseConfig({
      organizations: [{ id: 'org_a', name: 'A' }],
      projects: [{ id, orgId: 'org_a', name: 'P', domain: 'docs.test', sourceDir: '/tmp/x', playground: { allowedOrigins: ['https://api.acme.test'] } }],
    });
    expect(siteCsp(config, id)).toBe(withConnectOrigins(config.site.contentSecurityPolicy, ['https://api.acme.test']));
    expect(siteCsp(config, id)).toContain("connect-src 'self' https://api.acme.test");
    expect(siteCsp(config, 'other')).toBe(DEFAULT_SITE_CSP);
  });
});
