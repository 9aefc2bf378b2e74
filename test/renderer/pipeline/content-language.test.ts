/**
 * The words a page's content writes itself speak the page's navigation language (issue 39, "labels
 * inside page content"): callout labels, the field badges and the default label, the footnotes'
 * heading and links back. Anchors stay the same in every language.
 */
import { describe, expect, it } from 'vitest';
import { exportSite } from '../../../renderer/index.js';
import { contentStrings } from '../../../renderer/i18n/content-strings.js';
import { ROW_CODES } from '../../../renderer/i18n/row-codes.js';
import { tempSite } from '../load/site-fixtures.js';
import { sharedRenderPool } from '../../helpers/render-pool.js';

const body = [
  '---\ntitle: Fields\n---',
  '<Warning>Careful.</Warning>',
  '<ParamField query="limit" type="integer" required default={10} deprecated>How many.</ParamField>',
  'A claim[^1].\n\n[^1]: The source.',
  '<Expandable>\n<ResponseField name="id" type="string">The id.</ResponseField>\n</Expandable>',
  '<Tile href="/x">![a](/a.png)</Tile>',
].join('\n\n');

describe('content words in the navigation language', () => {
  it('labels callouts, field badges and footnotes in the page language, English as the fallback', async () => {
    const codes = ['en', 'ja', 'es', 'pt-BR', 'xx'];
    const files: Record<string, string> = {
      'docs.json': JSON.stringify({ name: 'x', navigation: { languages: codes.map((c) => ({ language: c, pages: [`${c}/fields`] })) } }),
    };
    for (const c of codes) files[`${c}/fields.mdx`] = body;
    const result = await exportSite({ sourceDir: tempSite(files), pool: sharedRenderPool() });
    const html = (p: string): string => new TextDecoder().decode(result.files.get(p));

    const ja = html('ja/fields/index.html');
    expect(ja).toContain('role="note" aria-label="警告"');
    expect(ja).toContain('c-field__badge--required">必須</span>');
    expect(ja).toContain('c-field__badge--deprecated">非推奨</span>');
    expect(ja).toContain('<span class="c-field__default">デフォルト: <code>10</code>');
    expect(ja).toContain('id="footnote-label">脚注</h2>');
    expect(ja).toContain('aria-label="参照 1 に戻る"');
    expect(ja).toContain('<span class="c-expandable__verb" data-hide="非表示">表示</span><span class="c-expandable__title">プロパティ</span>');
    expect(ja).not.toMatch(/>required<|Back to reference|>Footnotes<|>Show<|>Open</);

    const es = html('es/fields/index.html');
    expect(es).toContain('aria-label="Advertencia"');
    expect(es).toContain('c-field__badge--required">obligatorio</span>');
    expect(html('pt-BR/fields/index.html')).toContain('aria-label="Aviso"');

    for (const c of ['en', 'xx']) {
      const en = html(`${c}/fields/index.html`);
      expect(en).toContain('aria-label="Warning"');
      expect(en).toContain('c-field__badge--required">required</span>');
      expect(en).toContain('<span class="c-field__default">default: <code>10</code>');
      expect(en).toContain('aria-label="Back to reference 1"');
      expect(en).toContain('<span class="c-expandable__verb" data-hide="Hide">Show</span><span class="c-expandable__title">properties</span>');
    }
    // The same anchors whatever the language.
    for (const c of codes) expect(html(`${c}/fields/index.html`)).toContain('id="param-limit"');
  });

  it('has every word in every language the chrome has', () => {
    for (const code of ROW_CODES) {
      const t = contentStrings(code);
      for (const [k, v] of Object.entries(t)) expect(v, `${code}.${k}`).toMatch(/\S/);
      expect(t.backToReference, code).toContain('{n}');
    }
  });
});
