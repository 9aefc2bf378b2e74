/**
 * The site chrome speaks the page's navigation language (issue 39 class 8): search button,
 * pager, table of contents, page feedback and the page menu, for every code Mintlify accepts in
 * `navigation.languages`, English as the fallback.
 */
import { describe, expect, it } from 'vitest';
import { exportSite } from '../../../renderer/index.js';
import { chromeStrings, MINTLIFY_LANGUAGE_CODES } from '../../../renderer/i18n/chrome-strings.js';
import { tempSite } from '../load/site-fixtures.js';
import { sharedRenderPool } from '../../helpers/render-pool.js';

const lang = (code: string) => ({ language: code, pages: [`${code}/index`, `${code}/second`] });
const page = (title: string) => `---\ntitle: ${title}\n---\n\n## Part one\n\nText.\n\n## Part two\n\nMore.`;

describe('the chrome in the navigation language', () => {
  it('writes each language division in its own words, English where a code has no table', async () => {
    const codes = ['en', 'ja', 'cn', 'fr-CA', 'pt-BR', 'de-AT'];
    const files: Record<string, string> = {
      'docs.json': JSON.stringify({ name: 'x', contextual: { options: ['copy', 'view'] }, navigation: { languages: codes.map(lang) } }),
    };
    for (const c of codes) {
      files[`${c}/index.mdx`] = page(`Home ${c}`);
      files[`${c}/second.mdx`] = page(`Second ${c}`);
    }
    const result = await exportSite({ sourceDir: tempSite(files), pool: sharedRenderPool() });
    const html = (p: string): string => new TextDecoder().decode(result.files.get(p));

    const ja = html('ja/second/index.html');
    expect(ja).toContain('<span class="search-button-text">検索...</span>');
    expect(ja).toContain('<span class="pager-label">前へ</span>');
    expect(ja).toContain('このページの内容</p>');
    expect(ja).toContain('<span>このページは役に立ちましたか？</span>');
    expect(ja).toContain('>はい</button>');
    expect(ja).toContain('<span data-contextual-label>ページをコピー</span>');
    expect(ja).toContain('data-copied="コピーしました"');
    expect(ja).toContain('placeholder="ドキュメントを検索..."');
    expect(ja).toContain('data-ask-ai="AIに質問"');
    expect(ja).not.toContain('On this page');

    // Mintlify's aliases: cn is Simplified Chinese, fr-CA French, pt-BR Portuguese; an unlisted region falls to its language.
    expect(html('cn/index.html')).toContain('<span class="pager-label">下一页</span>');
    expect(html('fr-CA/index.html')).toContain('Sur cette page</p>');
    expect(html('pt-BR/second/index.html')).toContain('<span class="pager-label">Anterior</span>');
    expect(html('de-AT/second/index.html')).toContain('Auf dieser Seite</p>');

    const en = html('en/second/index.html');
    expect(en).toContain('<span class="search-button-text">Search...</span>');
    expect(en).toContain('<span class="pager-label">Previous</span>');
    expect(en).toContain('On this page</p>');
  });

  it('has a full table for every code Mintlify documents', () => {
    // mintlify-docs organize/settings-reference.mdx and settings-structure.mdx, as of the shared corpus.
    expect(MINTLIFY_LANGUAGE_CODES).toEqual(
      ['ar', 'ca', 'cn', 'cs', 'da', 'de', 'en', 'es', 'fi', 'fr', 'fr-CA', 'he', 'hi', 'hu', 'id', 'it', 'ja', 'ja-JP', 'jp', 'ko', 'lv', 'nl', 'no', 'pl', 'pt', 'pt-BR', 'ro', 'ru', 'sv', 'tr', 'uk', 'uz', 'vi', 'zh', 'zh-CN', 'zh-Hans', 'zh-Hant', 'zh-TW'].sort(),
    );
    const english = chromeStrings('en');
    for (const code of MINTLIFY_LANGUAGE_CODES) {
      const t = chromeStrings(code);
      for (const [key, value] of Object.entries(t)) expect(value.trim(), `${code} ${key}`).not.toBe('');
      if (code !== 'en') expect(t.onThisPage, code).not.toBe(english.onThisPage);
    }
    expect(chromeStrings('xx')).toEqual(english);
  });
});
