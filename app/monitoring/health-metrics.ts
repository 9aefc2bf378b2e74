import fs from 'node:fs';
import path from 'node:path';
import client from 'prom-client';
import { createPublishStore } from '../../data/stores/publishes.js';
import type { AppContext } from '../context.js';
import { DATABASE_FILE } from '../create-context.js';
import type { Feature } from '../feature.js';
import type { ServedSite } from '../site/served-site.js';

/** The bundle link's `expires` (seconds since the epoch) when it is one of the appliance's signed links. */
export function bundleLinkExpiry(bundleUrl: string | undefined): number | undefined {
  if (!bundleUrl || !/^https?:\/\//i.test(bundleUrl)) return undefined;
  try {
    const expires = Number(new URL(bundleUrl).searchParams.get('expires'));
    return Number.isInteger(expires) && expires > 0 ? expires : undefined;
  } catch {
    return undefined;
  }
}

function fileSize(file: string): number {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
}

/**
 * What the alert rules of deploy/prometheus/alerts.yml need, read at scrape time from the
 * appliance's own state (readiness, served sites, queues, the database file), so nothing is
 * updated on a request's path: docs/operations.md, "Monitoring".
 */
export function registerHealthMetrics(ctx: AppContext, deps: { features: () => readonly Feature[]; servedSites: () => Iterable<{ site: string; served: ServedSite }> }): void {
  const registers = [ctx.metrics.registry];
  const publishes = createPublishStore(ctx.db, () => ctx.clock.now());
  /** A gauge with a series per site, set anew at each scrape from `rows`. */
  const perSite = <L extends string>(name: string, help: string, labelNames: readonly L[], rows: () => Iterable<[Record<L, string>, number]>) =>
    new client.Gauge({
      name,
      help,
      labelNames,
      registers,
      collect() {
        this.reset();
        for (const [labels, value] of rows()) this.set(labels, value);
      },
    });
  const readiness = () => deps.features().flatMap((f) => f.ready?.().sites ?? []);
  perSite('docs_appliance_site_served', 'Whether each site this appliance is configured to serve is served (1) or not (0), as /readyz reports it', ['site'], () => readiness().map((s) => [{ site: s.site }, s.served ? 1 : 0]));
  perSite('docs_appliance_site_load_refused', 'Whether the last load of each site was refused in a way retrying cannot cure (HTTP 403/404/410, a bad archive)', ['site'], () => readiness().map((s) => [{ site: s.site }, s.refused ? 1 : 0]));
  perSite('docs_appliance_site_version_info', 'The version each served site serves (value 1, version as a label)', ['site', 'version'], function* () {
    for (const { site, served } of deps.servedSites()) yield [{ site, version: served.version }, 1];
  });
  perSite('docs_appliance_site_activated_timestamp_seconds', 'When each served site started serving its current version (seconds since the epoch)', ['site'], function* () {
    for (const { site, served } of deps.servedSites()) if (served.activatedAt) yield [{ site }, Date.parse(served.activatedAt) / 1000];
  });
  new client.Gauge({
    name: 'docs_appliance_bundle_link_expiry_timestamp_seconds',
    help: 'When the signed link in staticExport.bundleUrl expires (seconds since the epoch); absent for a link without expiry',
    registers,
    collect() {
      this.reset();
      const expiry = bundleLinkExpiry(ctx.config.staticExport.bundleUrl);
      if (expiry !== undefined) this.set(expiry);
    },
  });
  new client.Gauge({
    name: 'docs_appliance_export_jobs_queued',
    help: 'Static export jobs waiting for a render slot',
    registers,
    collect() {
      this.set(ctx.stores.exportJobs.countQueued());
    },
  });
  new client.Gauge({
    name: 'docs_appliance_publishes_unfinished',
    help: 'Publishes, previews and rollbacks queued or in progress',
    registers,
    collect() {
      this.set(publishes.unfinished().length);
    },
  });
  new client.Gauge({
    name: 'docs_appliance_database_bytes',
    help: 'Size of the SQLite database with its write-ahead log',
    registers,
    collect() {
      const db = path.join(ctx.config.stateDir, DATABASE_FILE);
      this.set(fileSize(db) + fileSize(`${db}-wal`));
    },
  });
  new client.Gauge({
    name: 'docs_appliance_state_dir_filesystem_bytes',
    help: 'Size and free space of the file system holding the state directory',
    labelNames: ['kind'] as const,
    registers,
    collect() {
      this.reset();
      try {
        const st = fs.statfsSync(ctx.config.stateDir);
        this.set({ kind: 'size' }, st.blocks * st.bsize);
        this.set({ kind: 'free' }, st.bavail * st.bsize);
      } catch {
        // the state dir is gone: the database check of /readyz says so
      }
    },
  });
}
