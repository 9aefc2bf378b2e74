import { createConfig, lintFromString } from '@redocly/openapi-core';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestAppliance } from '../helpers/appliance.js';

/*
 * The appliance's own /openapi.json, linted by Redocly's engine (@redocly/openapi-core, what
 * `redocly lint` runs; the library has no telemetry, unlike the CLI) with the strict
 * recommended rules: every warning is an error. One rule is off: the probes and /openapi.json
 * (/healthz, /readyz, /metrics) have no 4xx answer to declare.
 */
const t = createTestAppliance();
afterAll(() => t.close());

describe('/openapi.json', () => {
  it('passes redocly lint (recommended-strict) without a problem', async () => {
    const served = await t.api().get('/openapi.json').expect(200);
    const config = await createConfig({ extends: ['recommended-strict'], rules: { 'operation-4xx-response': 'off' } });
    const problems = await lintFromString({ source: JSON.stringify(served.body, null, 2), absoluteRef: 'openapi.json', config });
    const report = problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer ?? '?'}`);
    expect(report).toEqual([]);
  });

  it('names every operation, with the hosted names where the hosted documents have them, and carries a licence', async () => {
    const doc = (await t.api().get('/openapi.json').expect(200)).body as { info: { license: unknown }; paths: Record<string, Record<string, { operationId?: string }>> };
    const ids = Object.values(doc.paths).flatMap((item) => Object.values(item).map((op) => op.operationId));
    expect(ids.every((id) => typeof id === 'string' && /^[a-z][A-Za-z0-9]+$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect(doc.paths['/v1/static-export/jobs']!.post!.operationId).toBe('startStaticExportJob');
    expect(doc.paths['/v1/static-export/jobs/{jobId}']!.get!.operationId).toBe('getStaticExportJob');
    expect(doc.paths['/v1/static-export/jobs/{jobId}/bundle']!.post!.operationId).toBe('generateStaticExportBundle');
    expect(doc.info.license).toEqual({ name: 'MIT', identifier: 'MIT' });
  });
});
