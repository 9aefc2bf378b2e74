/**
 * The site chrome speaks the page's navigation language (issue 39 class 8): search button,
 * pager, table of contents, page feedback and the page menu, for every code Mintlify accepts in
 * `navigation.languages`, English as the fallback.
 */
import { describe, expect, it } from 'vitest';
import { exportSite } from '../../../renderer/index.js';
import { chromeStrings, MINTLIFY_LANGUAGE_CODES } from '../../../renderer/i18n/chrome-strings.js';
import { ROW_CODES } from '../../../renderer/i18n/row-codes.js';
import { tempSite } from '../load/site-fixtures.js';
import { sharedRenderPool } from '../../helpers/render-pool.js';

const lang = (code: string) => ({ language: code, pages: [`${code}/index`, `${code}/second`] });
/** The client scripts' words a page carries (`<html data-strings='…'>`). */
function pageStrings(html: string): Record<string, string> {
  const m = /<html[^>]* data-strings='([^']*)'/.exec(html);
  if (!m) throw new Error('no data-strings on <html>');
  return JSON.parse(m[1]!.replace(/&#39;/g, "'").replace(/&amp;/g, '&')) as Record<string, string>;
}
const page = (title: string) => `---\ntitle: ${title}\n---\n\n## Part one\n\nText.\n\n## Part two\n\nMore.`;

describe('the chrome in the navigation language', () => {
  it('writes each language division in its own words, English where a code has no table', async () => {
    const codes = ['en', 'ja', 'cn', 'fr-CA', 'pt-BR', 'de-AT'];
    const files: Record<string, string> = {
      'docs.json': JSON.stringify({ name: 'x', contextual: { options: ['copy', 'view'] }, footer: { socials: { github: 'https://github.com/acme' } }, navigation: { languages: codes.map(lang) } }),
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
    expect(ja).toContain('placeholder="ドキュメントを検索..."');
    expect(ja).toContain('<summary aria-label="その他のページ操作">');
    expect(ja).toContain('LLM向けにページをMarkdownでコピー');
    expect(ja).toContain('このページをプレーンテキストで表示');
    expect(ja).toContain('<ul class="socials" aria-label="xのソーシャルメディア">');
    expect(html('en/index.html')).toContain('<ul class="socials" aria-label="x elsewhere">');
    expect(pageStrings(ja)['askAi']).toBe('AIに質問');
    expect(pageStrings(ja)['copied']).toBe('コピーしました');
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

  it('has every field, non-empty, in every row; English in ASCII (one wider character makes V8 hold a page as two-byte)', () => {
    const fields = Object.keys(chromeStrings('en'));
    expect(fields.length).toBeGreaterThan(100);
    for (const code of ROW_CODES) {
      const t = chromeStrings(code) as unknown as Record<string, unknown>;
      expect(Object.keys(t).sort(), code).toEqual([...fields].sort());
      for (const f of fields) {
        expect(typeof t[f], `${code} ${f}`).toBe('string');
        expect((t[f] as string).trim(), `${code} ${f}`).not.toBe('');
      }
    }
    for (const [f, v] of Object.entries(chromeStrings('en'))) expect(/^[\x20-\x7e]*$/.test(v), f).toBe(true);
    // A template's placeholders survive translation.
    for (const code of ROW_CODES) {
      const t = chromeStrings(code);
      expect(t.noResults, code).toContain('{query}');
      expect(t.topResults, code).toContain('{shown}');
      expect(t.topResults, code).toContain('{count}');
      expect(t.results, code).toContain('{count}');
      expect(t.retryIn, code).toContain('{seconds}');
      expect(t.fillIn, code).toContain('{names}');
      expect(t.noAnswerText, code).toContain('{seconds}');
    }
  });

  it('gives the playground, the assistant, the search dialog and code copy buttons the page language', async () => {
    const codes = ['en', 'ja', 'fr'];
    const files: Record<string, string> = {
      'docs.json': JSON.stringify({ name: 'x', navigation: { languages: codes.map((code) => ({ language: code, pages: [`${code}/index`, `${code}/code`, `${code}/create`] })) } }),
    };
    for (const c of codes) {
      files[`${c}/index.mdx`] = page(`Home ${c}`);
      files[`${c}/code.mdx`] = '---\ntitle: Code\n---\n\n```js\nconsole.log(1);\n```\n';
      files[`${c}/create.mdx`] = '---\ntitle: Create\napi: POST https://api.example.test/v1/pets\n---\n\n<ParamField body="name" type="string" required>Name</ParamField>\n';
    }
    const result = await exportSite({ sourceDir: tempSite(files), pool: sharedRenderPool() });
    const html = (p: string): string => new TextDecoder().decode(result.files.get(p));

    const expected = {
      ja: { skip: 'コンテンツへスキップ', theme: 'ライトモードとダークモードを切り替え', cancel: 'キャンセル', closeSearch: '検索を閉じる', tryIt: '試してみる', send: '送信', authorization: '認証', copyCode: 'コードをコピー', noResults: '「{query}」に一致する結果はありません', ask: 'このドキュメントについて質問する...', sources: '出典' },
      fr: { skip: 'Aller au contenu', theme: 'Basculer entre le mode clair et sombre', cancel: 'Annuler', closeSearch: 'Fermer la recherche', tryIt: 'Essayer', send: 'Envoyer', authorization: 'Autorisation', copyCode: 'Copier le code', noResults: 'Aucun résultat pour « {query} »', ask: 'Posez une question sur cette documentation...', sources: 'Sources' },
      en: { skip: 'Skip to content', theme: 'Switch between light and dark mode', cancel: 'Cancel', closeSearch: 'Close search', tryIt: 'Try it', send: 'Send', authorization: 'Authorization', copyCode: 'Copy code', noResults: 'No results for "{query}"', ask: 'Ask a question about these docs...', sources: 'Sources' },
    };
    for (const [code, e] of Object.entries(expected)) {
      const api = html(`${code}/create/index.html`);
      const codePage = html(`${code}/code/index.html`);
      // Server-rendered chrome: skip link, theme toggle, the search dialog's buttons.
      expect(api, code).toContain(`<a class="skip-link" href="#content">${e.skip}</a>`);
      expect(api, code).toContain(`aria-label="${e.theme}"`);
      expect(api, code).toContain(`<span class="search-close-text">${e.cancel}</span>`);
      expect(api, code).toContain(`data-search-close aria-label="${e.closeSearch}"`);
      // The playground's words only where the playground runs; the others on every page.
      const apiWords = pageStrings(api);
      expect(apiWords['tryIt'], code).toBe(e.tryIt);
      expect(apiWords['send'], code).toBe(e.send);
      expect(apiWords['authorization'], code).toBe(e.authorization);
      const words = pageStrings(codePage);
      expect(words['tryIt'], code).toBeUndefined();
      expect(words['copyCode'], code).toBe(e.copyCode);
      expect(words['noResults'], code).toBe(e.noResults);
      expect(words['askPlaceholder'], code).toBe(e.ask);
      expect(words['sources'], code).toBe(e.sources);
      expect(codePage, code).toContain('data-copy-code');
    }
    expect(html('ja/code/index.html')).not.toContain('Skip to content');
    // The one 404.html speaks the language of the section a reader lands in first.
    expect(html('404.html')).toContain('Page not found</h1>');
  });
});
