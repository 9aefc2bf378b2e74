/**
 * The lines an API page writes under a field (its constraints) and the generated descriptions of
 * its security schemes are in the page's navigation language, like the rest of the page (issue 39,
 * class 8). A named schema is compacted once and shared by every page that shows it: an English
 * and a Japanese page showing the same schema each get their own words.
 */
import { describe, expect, it } from 'vitest';
import { renderApiPageInLanguages } from './api-page-languages.js';

const SPEC = {
  openapi: '3.1.0',
  info: { title: 'Pets', version: '1' },
  servers: [{ url: 'https://api.example.com' }],
  components: {
    securitySchemes: {
      bearer: { type: 'http', scheme: 'bearer' },
      basic: { type: 'http', scheme: 'basic' },
      key: { type: 'apiKey', in: 'query', name: 'api_key' },
      session: { type: 'apiKey', in: 'cookie', name: 'sid' },
      oauth: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: 'https://auth.example.com/token', scopes: {} } } },
      digest: { type: 'http', scheme: 'digest' },
      mtls: { type: 'mutualTLS' },
    },
    schemas: {
      Pet: {
        type: 'object',
        properties: {
          name: { type: 'string', minLength: 3, maxLength: 40, pattern: '^[a-z]+$' },
          age: { type: 'integer', minimum: 0, maximum: 30, multipleOf: 2 },
          tags: { type: 'array', minItems: 1, maxItems: 5, uniqueItems: true, items: { type: 'string' } },
          labels: { type: 'object', minProperties: 1, maxProperties: 9, patternProperties: { '^x-': { type: 'string' } } },
          parent: { $ref: '#/components/schemas/Pet' },
        },
      },
    },
  },
  paths: {
    '/pets': {
      post: {
        summary: 'Create a pet',
        security: [{ bearer: [] }, { basic: [] }, { key: [] }, { session: [] }, { oauth: [] }, { digest: [] }, { mtls: [] }],
        requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } } },
        responses: { '200': { description: 'OK', content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } } } },
      },
    },
  },
};

const render = (codes: string[]) => renderApiPageInLanguages(SPEC, 'POST /pets', 'pet', 'Create a pet', codes);

const ENGLISH = [
  'Required range: <code>0 &lt;= x &lt;= 30</code>',
  'Minimum string length: <code>3</code>',
  'Maximum string length: <code>40</code>',
  'Pattern: <code>^[a-z]+$</code>',
  'Key pattern: <code>^x-</code>',
  'Minimum array length: <code>1</code>',
  'Maximum array length: <code>5</code>',
  'Items must be unique',
  'Multiple of: <code>2</code>',
  'Minimum properties: <code>1</code>',
  'Maximum properties: <code>9</code>',
  'Bearer authentication header of the form <code>Bearer &lt;token&gt;</code>, where <code>&lt;token&gt;</code> is your auth token.',
  'Basic authentication header of the form <code>Basic &lt;encoded-value&gt;</code>, where <code>&lt;encoded-value&gt;</code> is the base64-encoded string <code>username:password</code>.',
  'API key sent in the query string as <code>api_key</code>.',
  'API key sent in the cookie as <code>sid</code>.',
  'The access token received from the authorization server in the OAuth 2.0 flow.',
  'HTTP <code>digest</code> credentials.',
  '<code>mtls</code>: mutual TLS. The client presents a trusted certificate when it connects; nothing is sent in the request itself.',
  'Refers back to <code>Pet</code> (a circular reference); its fields are shown above.',
];

const JAPANESE = [
  '必須範囲: <code>0 &lt;= x &lt;= 30</code>',
  '文字列の最小長: <code>3</code>',
  '文字列の最大長: <code>40</code>',
  'パターン: <code>^[a-z]+$</code>',
  'キーのパターン: <code>^x-</code>',
  '配列の最小長: <code>1</code>',
  '配列の最大長: <code>5</code>',
  'アイテムは一意である必要があります',
  '倍数: <code>2</code>',
  '最小プロパティ数: <code>1</code>',
  '最大プロパティ数: <code>9</code>',
  '<code>Bearer &lt;token&gt;</code> 形式の Bearer 認証ヘッダー。<code>&lt;token&gt;</code> は認証トークンです。',
  '<code>Basic &lt;encoded-value&gt;</code> 形式の Basic 認証ヘッダー。<code>&lt;encoded-value&gt;</code> は base64 でエンコードした文字列 <code>username:password</code> です。',
  'クエリ文字列で <code>api_key</code> として送信する API キー。',
  'Cookie で <code>sid</code> として送信する API キー。',
  'OAuth 2.0 フローで認可サーバーから受け取ったアクセストークン。',
  'HTTP <code>digest</code> の認証情報。',
  '<code>mtls</code>: 相互 TLS。クライアントは接続時に信頼された証明書を提示します。リクエスト自体では何も送信されません。',
  '<code>Pet</code> を再び参照しています（循環参照）。そのフィールドは上に表示されています。',
];

describe('API field constraints and security schemes in the navigation language', () => {
  // Both orders: the page compacted first fills the shared schema's memo.
  for (const codes of [['en', 'ja'], ['ja', 'en']]) {
    it(`writes each page's lines in its own language (${codes.join(' then ')})`, async () => {
      const html = await render(codes);
      const en = html('en/pet/index.html');
      const ja = html('ja/pet/index.html');
      for (const line of ENGLISH) expect(en).toContain(line);
      for (const line of JAPANESE) expect(ja).toContain(line);
      for (const line of ENGLISH) expect(ja).not.toContain(line);
      expect(ja).not.toMatch(/Minimum|Maximum|Required range|Pattern:|authentication header|API key sent|access token|credentials\.|mutual TLS|Refers back/);
    });
  }
});
