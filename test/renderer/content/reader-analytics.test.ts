import { describe, expect, it } from 'vitest';
import { docsJson, exportFiles } from './export-helpers.js';

/** Issue 20: the page-view beacon and the feedback control, and Mintlify's switches for them. */
const scripts = (html: string) => [...html.matchAll(/<script src="\/_static\/([a-z-]+)\.[0-9a-f]{10}\.js"/g)].map((m) => m[1]);

describe('reader analytics in exported pages', () => {
  it('docs.json by default: page-view.js and feedback.js on every page, the feedback control below the article', async () => {
    const site = await exportFiles({ 'docs.json': docsJson(['index']), 'index.mdx': '---\ntitle: Home\n---\n\n```bash\nnpm i\n```\n' });
    const html = site.page('/');
    expect(scripts(html)).toEqual(expect.arrayContaining(['page-view', 'feedback']));
    expect(html).toMatch(/<section class="page-feedback" id="feedback-toolbar" data-page-feedback data-thumbs="true" data-code-feedback="true"[^>]* hidden>/);
    expect(html).toContain('id="feedback-thumbs-up"');
    expect(html.indexOf('id="feedback-toolbar"')).toBeGreaterThan(html.indexOf('</article>'));
  });

  it('docs.json integrations.telemetry.enabled false: neither the beacon nor the control, and the setting is not reported as ignored', async () => {
    const site = await exportFiles({ 'docs.json': docsJson(['index'], { integrations: { telemetry: { enabled: false }, ga4: { measurementId: 'G-X' } } }), 'index.mdx': '# Home\n' });
    const html = site.page('/');
    expect(scripts(html)).not.toContain('page-view');
    expect(scripts(html)).not.toContain('feedback');
    expect(html).not.toContain('feedback-toolbar');
    // The bundle says so too: the appliance's site listener reads it for what it counts itself.
    expect(JSON.parse(site.file('manifest.json')!).readerAnalytics).toEqual({ pageViews: false, thumbs: false, code: false });
    // Its neighbour, which the appliance does not apply, is still reported.
    expect(JSON.stringify(site.result)).toContain('integrations.ga4');
    expect(JSON.stringify(site.result)).not.toContain('integrations.telemetry');
  });

  it('legacy mint.json: page views always, thumbs only with feedback.thumbsRating, no code feedback', async () => {
    const mint = (extra: Record<string, unknown>) => JSON.stringify({ name: 'Acme', colors: { primary: '#0d9373' }, navigation: [{ group: 'Docs', pages: ['index'] }], ...extra });
    const off = (await exportFiles({ 'mint.json': mint({}), 'index.mdx': '# Home\n' })).page('/');
    expect(scripts(off)).toContain('page-view');
    expect(off).not.toContain('feedback-toolbar');
    const on = (await exportFiles({ 'mint.json': mint({ feedback: { thumbsRating: true } }), 'index.mdx': '# Home\n' })).page('/');
    expect(scripts(on)).toEqual(expect.arrayContaining(['page-view', 'feedback']));
    expect(on).toMatch(/data-thumbs="true" data-code-feedback="false"/);
    const offSite = await exportFiles({ 'mint.json': mint({}), 'index.mdx': '# Home\n' });
    expect(JSON.parse(offSite.file('manifest.json')!).readerAnalytics).toEqual({ pageViews: true, thumbs: false, code: false });
  });
});
