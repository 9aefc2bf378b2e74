/**
 * A generated API page speaks its section's navigation language (issue 39, class 8): its section
 * headings, sub-labels, Expandable titles, the examples column and the lines under a field. The
 * headings' ids stay the English slugs in every language, so `#body` or `#response` links work
 * whatever language they were written against.
 */
import { describe, expect, it } from 'vitest';
import { exportSite } from '../../../renderer/index.js';
import { API_ROWS, apiStrings } from '../../../renderer/i18n/api-strings.js';
import { ROW_CODES } from '../../../renderer/i18n/row-codes.js';
import { slugify } from '../../../renderer/page/slug.js';
import { tempSite } from '../load/site-fixtures.js';
import { sharedRenderPool } from '../../helpers/render-pool.js';

const SPEC = {
  openapi: '3.1.0',
  info: { title: 'Pets', version: '1' },
  servers: [{ url: 'https://api.example.com' }],
  components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
  paths: {
    '/pets/{petId}': {
      post: {
        summary: 'Update a pet',
        security: [{ bearer: [] }, {}],
        parameters: [
          { name: 'X-Trace', in: 'header', schema: { type: 'string' } },
          { name: 'petId', in: 'path', required: true, schema: { type: 'string' } },
          { name: 'size', in: 'query', schema: { type: 'string', enum: ['s', 'm'], example: 's' } },
          { name: 'session', in: 'cookie', schema: { type: 'string' } },
        ],
        requestBody: {
          content: { 'application/json': { schema: { type: 'object', properties: { tags: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' } } } } } } } },
        },
        responses: { '200': { description: 'OK', content: { 'application/json': { schema: { type: 'object', properties: { id: { type: 'string', readOnly: true }, owner: { type: 'object', properties: { name: { type: 'string' } } } } } } } } },
      },
    },
  },
};

const codes = ['en', 'ja', 'es'];
const h2Ids = (html: string): string[] => [...html.matchAll(/<h2 id="([^"]+)" class="c-heading">/g)].map((m) => m[1]!);

describe('API pages in the navigation language', () => {
  it('translates the sections and keeps their English ids', async () => {
    const files: Record<string, string> = {
      'docs.json': JSON.stringify({ name: 'x', navigation: { languages: codes.map((c) => ({ language: c, pages: [`${c}/pet`] })) } }),
      'openapi.json': JSON.stringify(SPEC),
    };
    for (const c of codes) files[`${c}/pet.mdx`] = '---\ntitle: Update a pet\nopenapi: "openapi.json POST /pets/{petId}"\n---\n';
    const result = await exportSite({ sourceDir: tempSite(files), pool: sharedRenderPool() });
    const html = (p: string): string => new TextDecoder().decode(result.files.get(p));
    const heading = (id: string, text: string): string => `<h2 id="${id}" class="c-heading"><a class="c-heading__anchor" href="#${id}" aria-hidden="true" tabindex="-1"></a>${text}</h2>`;

    const en = html('en/pet/index.html');
    const ids = ['authorizations', 'headers', 'path-parameters', 'query-parameters', 'cookies', 'body', 'response'];
    expect(h2Ids(en)).toEqual(ids);
    expect(en).toContain(heading('path-parameters', 'Path Parameters'));
    expect(en).toContain('Optional: requests without credentials are accepted too.');
    expect(en).toContain('<p class="c-example__label">Request example</p>');

    const ja = html('ja/pet/index.html');
    expect(h2Ids(ja)).toEqual(ids);
    for (const [id, text] of [['authorizations', '認可'], ['headers', 'ヘッダー'], ['path-parameters', 'パスパラメータ'], ['query-parameters', 'クエリパラメータ'], ['body', 'ボディ'], ['response', 'レスポンス']]) expect(ja).toContain(heading(id!, text!));
    expect(ja).toContain('任意: 認証情報のないリクエストも受け付けます。');
    expect(ja).toContain('<p class="c-example__label">リクエスト例</p>');
    expect(ja).toContain('<p class="c-example__label">レスポンス例</p>');
    expect(ja).toContain('<span class="c-expandable__title">アイテム</span>');
    expect(ja).toContain('<span class="c-expandable__title">プロパティ</span>');
    expect(ja).toContain('使用可能なオプション: <code>s</code>');
    expect(ja).toContain('例: <code>s</code>');
    expect(ja).not.toMatch(/>(Authorizations|Path Parameters|Query Parameters|Body|Response|Request example|Response example|items)</);

    const es = html('es/pet/index.html');
    expect(h2Ids(es)).toEqual(ids);
    for (const [id, text] of [['authorizations', 'Autorizaciones'], ['headers', 'Encabezados'], ['path-parameters', 'Parámetros de ruta'], ['query-parameters', 'Parámetros de consulta'], ['body', 'Cuerpo'], ['response', 'Respuesta']]) expect(es).toContain(heading(id!, text!));
    expect(es).toContain('<p class="c-example__label">Ejemplo de solicitud</p>');
    expect(es).toContain('<code>solo lectura</code>');
    // The fields' own anchors do not change either.
    for (const c of codes) expect(html(`${c}/pet/index.html`)).toContain('id="param-pet-id"');
  });

  it('has every word in every language the chrome has, with its placeholders', () => {
    const placeholders = (v: string): string[] => [...v.matchAll(/\{\w+\}/g)].map((m) => m[0]).sort();
    for (const code of ROW_CODES) {
      const t = apiStrings(code);
      for (const [k, v] of Object.entries(t)) {
        expect(v, `${code}.${k}`).toMatch(/\S/);
        expect(placeholders(v), `${code}.${k}`).toEqual(placeholders(API_ROWS.en[k as keyof typeof t]));
      }
    }
    // The English headings slug to the ids Mintlify's pages use (custom ids take [\w-] only).
    for (const v of Object.values(API_ROWS.en)) if (v.length < 20) expect(slugify(v)).toMatch(/^[\w-]+$/);
  });
});
