import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Express } from 'express';
import { parseConfig } from '../../config/load.js';
import type { ConfigInput } from '../../config/schema.js';
import { createAppContext } from '../../app/create-context.js';
import { removeTree } from '../../app/fs-tree.js';
import { createFeatures } from '../../app/features.js';
import type { Feature } from '../../app/feature.js';
import { createLogger } from '../../app/logger.js';
import { buildSiteApp } from '../../app/site-app.js';
import type { SiteFeature } from '../../app/site/feature.js';
import { sampleSite, writeFile, zipBundle } from '../loader/helpers/bundle.js';
import { createTestAppliance, type TestAppliance } from '../helpers/appliance.js';

export const siteFeature = (features: readonly Feature[]): SiteFeature => features.find((f) => f.name === 'site') as SiteFeature;

/** Fast loader settings for tests: retries in tens of milliseconds. */
export const fastLoader = {
  retry: { minMs: 50, maxMs: 200 },
  fetch: { connectTimeoutMs: 500, totalTimeoutMs: 2000, retries: 0, backoffMs: 10 },
};

/** Write a valid zip bundle of the sample site labelled `version` and return its path. */
export function bundleFile(dir: string, version: string): string {
  return writeFile(dir, `bundles/${version}.zip`, zipBundle(sampleSite(version), version));
}

/**
 * An appliance on a given state dir (so a test can "restart" on the same one), without the
 * admin side: config, database, features, the site app. Logs go nowhere.
 */
export function siteAppliance(stateDir: string, config: Partial<ConfigInput> = {}) {
  const parsed = parseConfig({ stateDir, log: { level: 'silent' }, organizations: [{ id: 'org_a', name: 'A' }], ...config }, { source: 'test' });
  const ctx = createAppContext({ config: parsed, log: createLogger('silent') });
  const features = createFeatures(ctx);
  const app = buildSiteApp(ctx, features);
  return {
    ctx,
    features,
    app,
    site: siteFeature(features),
    async start() {
      for (const f of features) await f.start?.();
    },
    async close() {
      for (const f of [...features].reverse()) await f.stop?.();
      ctx.db.close();
    },
  };
}

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** Listen on loopback; return the base port and a closer. */
export function listen(app: Express): Promise<{ port: number; close(): Promise<void> }> {
  return new Promise((resolve) => {
    const server = http.createServer(app);
    server.listen(0, '127.0.0.1', () => {
      resolve({
        port: (server.address() as AddressInfo).port,
        close: () =>
          new Promise<void>((r) => {
            server.close(() => r());
            server.closeAllConnections();
          }),
      });
    });
  });
}

/**
 * One request with the path sent byte for byte (no URL normalisation: `..`, `%2e%2e`, `\`
 * reach the server as written) and the body not decoded.
 */
export function raw(port: number, rawPath: string, opts: { method?: string; headers?: Record<string, string>; agent?: http.Agent } = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: rawPath, method: opts.method ?? 'GET', headers: opts.headers ?? {}, agent: opts.agent ?? false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

export function rmDir(dir: string): void {
  removeTree(dir);
}

export const sitesDir = (stateDir: string) => path.join(stateDir, 'sites');

/**
 * A full test appliance serving the sample site `v1` from a zip bundle on a real port (the
 * bundle lives in the test's own state dir; the config is reloaded to point at it).
 */
export async function serveSampleSite(): Promise<{ t: TestAppliance; port: number; close(): Promise<void> }> {
  const t = createTestAppliance({ config: { staticExport: { enabled: true, bundleUrl: 'placeholder', ...fastLoader } } });
  const zip = bundleFile(t.stateDir, 'v1');
  await t.start();
  await siteFeature(t.features).reload({ ...t.config, staticExport: { ...t.config.staticExport, bundleUrl: zip } });
  const server = await listen(t.site);
  return {
    t,
    port: server.port,
    close: async () => {
      await server.close();
      await t.close();
    },
  };
}
