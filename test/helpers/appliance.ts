import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import supertest from 'supertest';
import type { Express } from 'express';
import { parseConfig } from '../../config/load.js';
import type { ConfigInput } from '../../config/schema.js';
import { buildAdminApp } from '../../app/admin-app.js';
import { buildSiteApp } from '../../app/site-app.js';
import { manualClock } from '../../app/clock.js';
import type { Clock, ManualClock } from '../../app/clock.js';
import { createAppContext } from '../../app/create-context.js';
import { createFeatures } from '../../app/features.js';
import { createLogger } from '../../app/logger.js';
import type { Scope } from '../../data/stores/admin-keys.js';
import { agentWorkerEntry } from './cli-entry.js';
import { sharedExportRunner } from './export-runner.js';
import { expectSpec } from './openapi.js';
import type { ReaderAccess } from '../../app/reader-access/types.js';
import type { ExportRunner } from '../../app/static-export/export-thread.js';

export const TEST_ORG = 'org_test';
export const OTHER_ORG = 'org_other';
export const FREE_ORG = 'org_free';
export const TEST_PROJECT = 'aaaaaaaaaaaaaaaaaaaaaaaa';
export const OTHER_PROJECT = 'bbbbbbbbbbbbbbbbbbbbbbbb';
export const FREE_PROJECT = 'cccccccccccccccccccccccc';

export interface TestApplianceOptions {
  /** Merged over the test defaults (three orgs, three projects, silent-but-captured logs). */
  config?: Partial<ConfigInput>;
  /** A manual clock by default; pass `systemClock` for real time. */
  clock?: Clock;
  /** Docs folder of the test project; default: a tiny generated one. */
  sourceDir?: string;
  /** Reuse this state dir (a restart); the caller owns it and close() leaves it in place. */
  stateDir?: string;
  /**
   * `shared` (default): exports and publishes run on the fork's warm export thread
   * (helpers/export-runner.ts). `own`: the appliance starts and stops its own, as `serve` does.
   */
  exportThread?: 'shared' | 'own';
  /** Reader sign-in for the site listener and the assistant (issue 40 tests pass a table-backed one). */
  readerAccess?: ReaderAccess;
  /** Replaces the export thread (tests whose bundles the renderer cannot write yet). */
  exportRunner?: ExportRunner;
}

/**
 * A fresh appliance per test: temp state dir, real SQLite, real features, apps not listening
 * (supertest drives them). Log lines are captured so tests can assert what was (not) logged.
 */
export function createTestAppliance<C extends Clock = ManualClock>(options: TestApplianceOptions & { clock?: C } = {}) {
  const stateDir = options.stateDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'docs-appliance-test-'));
  const sourceDir = options.sourceDir ?? writeTinyDocs(path.join(stateDir, 'source'));
  // Tests that pass no clock get a manual one they can set and advance.
  const clock = (options.clock ?? manualClock(new Date())) as C;
  const raw: ConfigInput = {
    stateDir,
    log: { level: 'debug' },
    organizations: [
      { id: TEST_ORG, name: 'Test', plan: 'enterprise' },
      { id: OTHER_ORG, name: 'Other', plan: 'enterprise' },
      { id: FREE_ORG, name: 'Free', plan: 'free' },
    ],
    projects: [
      { id: TEST_PROJECT, orgId: TEST_ORG, name: 'Test docs', domain: 'docs.test.internal', sourceDir },
      { id: OTHER_PROJECT, orgId: OTHER_ORG, name: 'Other docs', domain: 'docs.other.internal', sourceDir },
      { id: FREE_PROJECT, orgId: FREE_ORG, name: 'Free docs', domain: 'docs.free.internal', sourceDir },
    ],
    ...options.config,
  };
  const config = parseConfig(raw, { source: 'test' });
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, cb) {
      logs.push(chunk.toString());
      cb();
    },
  });
  const log = createLogger('debug', sink);
  const ctx = createAppContext({ config, clock, log });
  const agentWorker = agentWorkerEntry();
  const features = createFeatures(ctx, {
    ...(options.exportRunner ? { exportRunner: options.exportRunner } : options.exportThread === 'own' ? {} : { exportRunner: sharedExportRunner(config.renderer.threads) }),
    ...(agentWorker ? { agentWorkerEntry: agentWorker } : {}),
    ...(options.readerAccess ? { readerAccess: options.readerAccess } : {}),
  });
  const admin: Express = buildAdminApp(ctx, features);
  const site: Express = buildSiteApp(ctx, features);
  const initialKey = fs.readFileSync(path.join(stateDir, 'initial-admin-key'), 'utf8').trim();
  let started = false;

  const createKey = (orgId: string = TEST_ORG, opts: { scopes?: Scope[]; expiresAt?: Date } = {}) =>
    ctx.stores.adminKeys.create({ orgId, scopes: opts.scopes ?? ['read', 'write'], expiresAt: opts.expiresAt ?? null }).key;

  /** supertest against the admin app; every response is checked against the OpenAPI document. */
  const api = (key?: string) => {
    const agent = supertest(admin);
    const auth = <T extends supertest.Test>(t: T): T => (key ? (t.set('Authorization', `Bearer ${key}`) as T) : t).expect(expectSpec) as T;
    return {
      get: (url: string) => auth(agent.get(url)),
      head: (url: string) => auth(agent.head(url)),
      post: (url: string) => auth(agent.post(url)),
      put: (url: string) => auth(agent.put(url)),
      delete: (url: string) => auth(agent.delete(url)),
    };
  };

  return {
    ctx,
    config,
    clock,
    features,
    admin,
    site,
    stateDir,
    sourceDir,
    initialKey,
    logs,
    createKey,
    api,
    /** Start the features' background work (queues, loader), as `serve` does. */
    async start() {
      for (const f of features) await f.start?.();
      started = true;
    },
    async close() {
      if (started) for (const f of [...features].reverse()) await f.stop?.();
      ctx.db.close();
      if (!options.stateDir) fs.rmSync(stateDir, { recursive: true, force: true });
    },
  };
}

export type TestAppliance = ReturnType<typeof createTestAppliance<ManualClock>>;

/** A two-page docs.json site, enough for tests that need a source but not the renderer's depth. */
export function writeTinyDocs(dir: string): string {
  fs.mkdirSync(path.join(dir, 'guides'), { recursive: true });
  fs.writeFileSync(
    path.join(dir, 'docs.json'),
    JSON.stringify({ name: 'Tiny', colors: { primary: '#0d9373' }, navigation: { groups: [{ group: 'Start', pages: ['index', 'guides/intro'] }] } }, null, 2),
  );
  fs.writeFileSync(path.join(dir, 'index.mdx'), '---\ntitle: Home\n---\n\nWelcome to the tiny docs.\n');
  fs.writeFileSync(path.join(dir, 'guides', 'intro.mdx'), '---\ntitle: Introduction\n---\n\n## Install\n\nRun the installer.\n');
  return dir;
}
