/**
 * The access log's level follows what a status means to an operator: a deliberate 503 (nothing
 * served yet, with Retry-After) is a warning; other 5xx are errors; the rest is info.
 */
import express from 'express';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { accessLog } from '../../app/http/access-log.js';
import { createLogger } from '../../app/logger.js';
import { createMetrics } from '../../app/metrics.js';
import { createTestAppliance } from '../helpers/appliance.js';

const levelOf = (lines: string[], status: number): number | undefined => {
  const line = lines.map((l) => JSON.parse(l) as { msg?: string; status?: number; level?: number }).find((l) => l.msg === 'request' && l.status === status);
  return line?.level;
};

describe('access log levels', () => {
  it('logs the first start\'s 503 (no site exported yet) as a warning, with no error line', async () => {
    const t = createTestAppliance({ config: { site: { exampleOnFirstStart: false } } });
    await t.start();
    try {
      const res = await request(t.site).get('/');
      expect(res.status).toBe(503);
      expect(res.headers['retry-after']).toBe('30');
      expect(levelOf(t.logs, 503)).toBe(40);
      expect(t.logs.filter((l) => /"level":(50|60)/.test(l))).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it('logs other server errors as errors and the rest as info', async () => {
    const lines: string[] = [];
    const log = createLogger('info', { write: (chunk: string) => void lines.push(chunk) });
    const app = express();
    app.use(accessLog(log, createMetrics(), 'admin'));
    app.get('/boom', (_req, res) => void res.status(500).end());
    app.get('/busy', (_req, res) => void res.status(503).end());
    app.get('/ok', (_req, res) => void res.status(200).end());
    for (const p of ['/boom', '/busy', '/ok']) await request(app).get(p);
    await new Promise((r) => setImmediate(r));
    expect([levelOf(lines, 500), levelOf(lines, 503), levelOf(lines, 200)]).toEqual([50, 40, 30]);
  });
});
