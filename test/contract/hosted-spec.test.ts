import { describe, expect, it } from 'vitest';
import { checkAnswer, serverPath, toJsonSchema } from './hosted-spec.js';

/* The checker the contract test relies on: it must refuse what the documents do not allow. */
const json = (status: number, body: unknown, extra: Record<string, string> = {}) => ({ status, headers: new Headers({ 'content-type': 'application/json; charset=utf-8', ...extra }), body });
const job = { jobId: 'se_0123456789abcdef', status: 'running', progress: 10, pageCount: 1, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z' };

describe('the published-document checker', () => {
  it('converts OpenAPI 3.0 nullable and drops example', () => {
    expect(toJsonSchema({ type: 'string', nullable: true, example: 'x' }, 'd')).toEqual({ type: ['string', 'null'] });
    expect(toJsonSchema({ enum: ['a'], type: 'string', nullable: true }, 'd')).toEqual({ enum: ['a', null], type: ['string', 'null'] });
    expect(toJsonSchema({ $ref: '#/components/schemas/X', nullable: true }, 'd')).toEqual({ anyOf: [{ $ref: 'd#/components/schemas/X' }, { type: 'null' }] });
    expect(toJsonSchema({ type: 'object', properties: { example: { type: 'string' }, nullable: { type: 'boolean' } } }, 'd')).toEqual({
      type: 'object',
      properties: { example: { type: 'string' }, nullable: { type: 'boolean' } },
    });
  });

  it('accepts a documented answer and refuses a wrong body, status type or content type', () => {
    const op = ['static-export', 'GET', '/static-export/jobs/{jobId}'] as const;
    expect(() => checkAnswer(...op, json(200, job))).not.toThrow();
    expect(() => checkAnswer(...op, json(200, { ...job, error: null }))).not.toThrow();
    expect(() => checkAnswer(...op, json(200, { ...job, progress: 101 }))).toThrow(/must be <= 100/);
    expect(() => checkAnswer(...op, json(200, { ...job, status: 'done' }))).toThrow(/must be equal to one of the allowed values/);
    expect(() => checkAnswer(...op, { status: 200, headers: new Headers({ 'content-type': 'text/html' }), body: '<p>' })).toThrow(/content type text\/html/);
  });

  it('holds an undocumented status to the error shape', () => {
    const op = ['static-export', 'GET', '/static-export/jobs/{jobId}'] as const;
    expect(() => checkAnswer(...op, json(503, { error: 'storage full' }))).not.toThrow();
    expect(() => checkAnswer(...op, json(503, { message: 'storage full' }))).toThrow(/error message/);
    expect(() => checkAnswer(...op, json(503, { error: 42 }))).toThrow(/error shape/);
    expect(() => checkAnswer(...op, { status: 503, headers: new Headers({ 'content-type': 'text/plain' }), body: 'down' })).toThrow(/undocumented status/);
    expect(() => checkAnswer('analytics', 'GET', '/v1/analytics/{projectId}/searches', json(429, { details: [] }))).toThrow(/error shape/);
  });

  it('checks declared headers', () => {
    const op = ['admin', 'POST', '/v1/agent/{projectId}/job'] as const;
    const sse = (headers: Record<string, string>) => ({ status: 200, headers: new Headers({ 'content-type': 'text/event-stream', ...headers }), body: 'data: [DONE]\n\n' });
    expect(() => checkAnswer(...op, sse({ 'x-session-id': 'aj_1', 'x-branch-name': 'b' }))).not.toThrow();
    expect(() => checkAnswer(...op, sse({ 'x-session-id': 'aj_1' }))).toThrow(/X-Branch-Name is missing/);
  });

  it('takes the server path from the documents', () => {
    expect(serverPath('static-export')).toBe('/v1');
    expect(serverPath('admin')).toBe('');
  });
});
