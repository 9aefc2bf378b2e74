/**
 * The copy buttons a page's content carries (code blocks, code groups, prompts, color swatches)
 * are named in the page's navigation language in the HTML itself, before or without the client
 * script, and show their visible "Copy"/"Copied" in it (issue 39, class 8). English pages carry the
 * same markup as before: the stylesheet holds the English words (the visible words are proven in
 * Chromium by test/renderer/page/client.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { exportSite } from '../../../renderer/index.js';
import { tempSite } from '../load/site-fixtures.js';
import { sharedRenderPool } from '../../helpers/render-pool.js';

const body = [
  '---\ntitle: Copy\n---',
  '```js\nlet a = 1;\n```',
  '<CodeGroup>\n```js a.js\nlet a = 1;\n```\n```py b.py\na = 1\n```\n</CodeGroup>',
  '<CodeGroup>\n```sh\nls\n```\n</CodeGroup>',
  '<Prompt description="Ask">Write a test.</Prompt>',
  '<Color variant="compact">\n<Color.Item name="brand" value="#16A34A" />\n</Color>',
].join('\n\n');

const button = (label: string, own = ''): string => `<button type="button" class="c-code__copy" data-copy-code aria-label="${label}"${own}><span class="c-code__copy-status" aria-live="polite"></span></button>`;
const count = (html: string, part: string): number => html.split(part).length - 1;

describe('copy buttons in the navigation language', () => {
  it('names and labels them in the page language, English markup as before', async () => {
    const codes = ['en', 'ja', 'de'];
    const files: Record<string, string> = {
      'docs.json': JSON.stringify({ name: 'x', navigation: { languages: codes.map((c) => ({ language: c, pages: [`${c}/copy`] })) } }),
    };
    for (const c of codes) files[`${c}/copy.mdx`] = body;
    const result = await exportSite({ sourceDir: tempSite(files), pool: sharedRenderPool() });
    const html = (p: string): string => new TextDecoder().decode(result.files.get(p));

    const en = html('en/copy/index.html');
    expect(count(en, button('Copy code'))).toBe(3);
    expect(count(en, button('Copy prompt'))).toBe(1);
    expect(en).toContain('class="c-color__swatch" data-copy-code aria-label="Copy #16A34A"');
    expect(en).not.toContain('data-copy-label');

    const ja = html('ja/copy/index.html');
    const own = ' data-copy-label="コピー" data-copied-label="コピーしました"';
    expect(count(ja, button('コードをコピー', own))).toBe(3);
    expect(count(ja, button('プロンプトをコピー', own))).toBe(1);
    expect(ja).toContain('class="c-color__swatch" data-copy-code aria-label="#16A34A をコピー"');
    expect(ja).not.toMatch(/aria-label="Copy/);

    const de = html('de/copy/index.html');
    expect(count(de, button('Code kopieren', ' data-copy-label="Kopieren" data-copied-label="Kopiert"'))).toBe(3);
  });
});
