import { describe, expect, it } from 'vitest';
import { textDirection } from '../../../renderer/layout/direction.js';
import { exportFiles } from './export-helpers.js';

describe('text direction', () => {
  it('sets dir="rtl" on <html> for pages of a right-to-left language division, not for the others', async () => {
    const docs = {
      name: 'Acme',
      theme: 'mint',
      colors: { primary: '#0d9373' },
      navigation: {
        languages: [
          { language: 'en', groups: [{ group: 'Start', pages: ['index'] }] },
          { language: 'ar', groups: [{ group: 'البداية', pages: ['ar/index'] }] },
          { language: 'he', groups: [{ group: 'התחלה', pages: ['he/index'] }] },
        ],
      },
    };
    const site = await exportFiles({
      'docs.json': JSON.stringify(docs),
      'index.mdx': '---\ntitle: Home\n---\n\nHello.',
      'ar/index.mdx': '---\ntitle: الرئيسية\n---\n\nمرحبا.',
      'he/index.mdx': '---\ntitle: בית\n---\n\nשלום.',
    });
    expect(site.page('/ar')).toMatch(/^<!doctype html>\n<html lang="ar" dir="rtl"/);
    expect(site.page('/he')).toMatch(/<html lang="he" dir="rtl"/);
    expect(site.page('/')).toMatch(/<html lang="en" data-/);
    expect(site.page('/')).not.toContain('dir="rtl"');
  }, 60_000);

  it('knows right-to-left languages and scripts by their tags', () => {
    for (const tag of ['ar', 'ar-EG', 'he', 'fa', 'ur', 'ps', 'yi', 'ckb', 'az-Arab', 'pa-Arab']) expect(textDirection(tag)).toBe('rtl');
    for (const tag of ['en', 'fr', 'zh-Hans', 'ku-Latn', 'pt-BR', 'ja']) expect(textDirection(tag)).toBeUndefined();
  });
});
