import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../app/paths.js';
import { ALLOW_UNSUPPORTED_RUNTIME_ENV, assessRuntime, detectRuntime, runtimeGate, SUPPORTED_RUNTIMES } from '../../app/runtime-guard.js';

// The refusal through the CLI process on a real Node 24 binary: scripts/check-runtime-guard.sh
// (run by .ci/run). The suite itself downloads nothing, so here the pairs are given.
const dec2026 = new Date('2026-12-02T00:00:00Z');

describe('the runtime guard: which Node and driver pairs run', () => {
  it('detects the running pair without loading the native module', () => {
    const rt = detectRuntime();
    expect(rt.node).toBe(process.versions.node);
    const pkg = JSON.parse(fs.readFileSync(path.join(packageRoot(), 'node_modules/better-sqlite3/package.json'), 'utf8')) as { version: string };
    expect(rt.driver).toBe(pkg.version);
  });

  it.each([
    ['24.21.0', '12.11.1'],
    ['24.0.0', '11.10.0'],
    ['26.12.1', '12.11.1'],
    ['20.20.2', '13.2.0'],
  ])('Node %s with better-sqlite3 %s is known to abort: refused, naming the supported pairs and the override', (node, driver) => {
    const gate = runtimeGate({}, { node, driver }, dec2026);
    expect(gate.refuse).toContain(`Node ${node} with better-sqlite3 ${driver} is a pair known to abort`);
    expect(gate.refuse).toContain(`Supported: ${SUPPORTED_RUNTIMES}`);
    expect(gate.refuse).toContain(`${ALLOW_UNSUPPORTED_RUNTIME_ENV}=1 runs anyway`);
    expect(gate.refuse).not.toContain('\n');
  });

  it('the override turns the refusal into a warning, only when set to 1', () => {
    const pair = { node: '24.21.0', driver: '12.11.1' };
    const allowed = runtimeGate({ [ALLOW_UNSUPPORTED_RUNTIME_ENV]: '1' }, pair, dec2026);
    expect(allowed.refuse).toBeUndefined();
    expect(allowed.refuse === undefined && allowed.assessment.kind).toBe('aborts');
    expect(allowed.refuse === undefined && allowed.warning).toMatch(/^running anyway \(DOCS_APPLIANCE_ALLOW_UNSUPPORTED_RUNTIME=1\): Node 24\.21\.0 with better-sqlite3 12\.11\.1/);
    expect(runtimeGate({ [ALLOW_UNSUPPORTED_RUNTIME_ENV]: 'yes' }, pair, dec2026).refuse).toBeDefined();
    expect(runtimeGate({ [ALLOW_UNSUPPORTED_RUNTIME_ENV]: '' }, pair, dec2026).refuse).toBeDefined();
  });

  it('Node 22 with better-sqlite3 12 (the image) and Node 24 with 13 are supported, with no warning', () => {
    for (const pair of [
      { node: '22.23.5', driver: '12.11.1' },
      { node: '24.22.3', driver: '13.2.0' },
    ]) {
      const gate = runtimeGate({}, pair, dec2026);
      expect(gate).toEqual({ assessment: { kind: 'supported', runtime: pair } });
    }
  });

  it('an end-of-life Node runs with a warning that names its end of life; before that date it is supported', () => {
    const node20 = { node: '20.20.2', driver: '12.11.1' };
    const gate = runtimeGate({}, node20, dec2026);
    expect(gate.refuse).toBeUndefined();
    expect(gate.refuse === undefined && gate.assessment.kind).toBe('end-of-life');
    expect(gate.refuse === undefined && gate.warning).toBe(`Node 20.20.2 reached its end of life on 2026-04-30 and gets no security fixes: run the image, or Node 22 LTS. Supported: ${SUPPORTED_RUNTIMES}`);
    expect(assessRuntime(node20, new Date('2026-04-29T23:59:59Z')).kind).toBe('supported');
    expect(assessRuntime(node20, new Date('2026-04-30T00:00:00Z')).kind).toBe('end-of-life');
    expect(assessRuntime({ node: '22.23.5', driver: '12.11.1' }, new Date('2027-05-01T00:00:00Z')).kind).toBe('end-of-life');
    // Odd majors live six months; an old one unknown to the table is past its end too.
    expect(assessRuntime({ node: '25.1.0', driver: '13.2.0' }, dec2026).kind).toBe('end-of-life');
    expect(assessRuntime({ node: '16.20.2', driver: '12.11.1' }, dec2026).kind).toBe('end-of-life');
    // A major newer than the table is taken as alive (and 27 with driver 13 aborts on nothing known).
    expect(assessRuntime({ node: '27.0.0', driver: '13.2.0' }, dec2026).kind).toBe('supported');
  });
});
