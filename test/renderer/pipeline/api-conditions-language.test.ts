/**
 * The sentences an `if`/`then`/`else` schema adds under the fields its branches name ("Required
 * when `country` is `US`.") are in the page's navigation language, like the constraint lines
 * (api-constraints-language.test.ts). The schema is compacted once and shared by every page that
 * shows it: an English and a Japanese page showing it each get their own words.
 */
import { describe, expect, it } from 'vitest';
import { renderApiPageInLanguages } from './api-page-languages.js';

const SPEC = {
  openapi: '3.1.0',
  info: { title: 'Shop', version: '1' },
  servers: [{ url: 'https://api.example.com' }],
  components: {
    schemas: {
      Address: {
        type: 'object',
        properties: { country: { type: 'string', enum: ['US', 'CA'] }, express: { type: 'boolean' }, state: { type: 'string' }, postal_code: { type: 'string' } },
        if: { properties: { country: { const: 'US' } }, required: ['country', 'express'] },
        then: { required: ['state'], properties: { postal_code: { pattern: '^[0-9]{5}$', maxLength: 5 } } },
        else: { properties: { province: { type: 'string', enum: ['ON', 'QC'] } } },
      },
    },
  },
  paths: {
    '/orders': {
      post: {
        summary: 'Place an order',
        requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Address' } } } },
        responses: { '200': { description: 'OK', content: { 'application/json': { schema: { $ref: '#/components/schemas/Address' } } } } },
      },
    },
  },
};

const render = (codes: string[]) => renderApiPageInLanguages(SPEC, 'POST /orders', 'order', 'Place an order', codes);

const ENGLISH = [
  'Required when <code>country</code> is <code>US</code> and <code>express</code> is given.',
  'When <code>country</code> is <code>US</code> and <code>express</code> is given: maximum string length <code>5</code>, pattern <code>^[0-9]{5}$</code>.',
  'Otherwise (<code>country</code> is not <code>US</code> and <code>express</code> is not given): one of <code>ON</code>, <code>QC</code>.',
];

const JAPANESE = [
  '<code>country</code> が <code>US</code> である、かつ<code>express</code> が指定されている場合は必須です。',
  '<code>country</code> が <code>US</code> である、かつ<code>express</code> が指定されている場合: 文字列の最大長 <code>5</code>、パターン <code>^[0-9]{5}$</code>。',
  'それ以外の場合（<code>country</code> が <code>US</code> でない、かつ<code>express</code> が指定されていない）: <code>ON</code>, <code>QC</code> のいずれか。',
];

describe('if/then/else rules in the navigation language', () => {
  // Both orders: the page compacted first fills the shared schema's memo.
  for (const codes of [['en', 'ja'], ['ja', 'en']]) {
    it(`writes each page's rules in its own language (${codes.join(' then ')})`, async () => {
      const html = await render(codes);
      const en = html('en/order/index.html');
      const ja = html('ja/order/index.html');
      // The request body and the response each show the schema.
      for (const line of ENGLISH) expect(en.split(line).length - 1, line).toBe(2);
      for (const line of JAPANESE) expect(ja.split(line).length - 1, line).toBe(2);
      expect(ja).not.toMatch(/Required when|is given|Otherwise|one of/);
    });
  }
});
