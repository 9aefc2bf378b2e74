/**
 * Monitoring (issue 38, point 11): /metrics carries what the shipped alert rules need, with true
 * values for a served site, and every metric the rules in deploy/prometheus/alerts.yml name is one
 * the appliance exposes.
 */
import fs from 'node:fs';
import path from 'node:path';
import client from 'prom-client';
import request from 'supertest';
import YAML from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleLinkExpiry } from '../../app/monitoring/health-metrics.js';
import { packageRoot } from '../../app/paths.js';
import { assistantRig, type AssistantRig } from '../assistant/helpers.js';

const value = (text: string, series: string): number | undefined => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

describe('/metrics for monitoring', () => {
  let rig: AssistantRig;
  let text: string;
  beforeAll(async () => {
    rig = await assistantRig();
    text = (await request(rig.t.admin).get('/metrics').expect(200)).text;
  }, 120_000);
  afterAll(async () => {
    await rig?.close();
  });

  it('says which site is served, at which version and since when', () => {
    expect(value(text, 'docs_appliance_site_served{site="bundle"}')).toBe(1);
    expect(value(text, 'docs_appliance_site_load_refused{site="bundle"}')).toBe(0);
    expect(value(text, 'docs_appliance_site_version_info{site="bundle",version="assistant-v1"}')).toBe(1);
    const activated = value(text, 'docs_appliance_site_activated_timestamp_seconds{site="bundle"}')!;
    expect(Date.now() / 1000 - activated).toBeGreaterThanOrEqual(0);
    expect(Date.now() / 1000 - activated).toBeLessThan(300);
  });

  it('gives queue depths, the database size and the state volume', () => {
    expect(value(text, 'docs_appliance_export_jobs_queued')).toBe(0);
    expect(value(text, 'docs_appliance_publishes_unfinished')).toBe(0);
    expect(value(text, 'docs_appliance_database_bytes')).toBeGreaterThan(4096);
    const size = value(text, 'docs_appliance_state_dir_filesystem_bytes{kind="size"}')!;
    const free = value(text, 'docs_appliance_state_dir_filesystem_bytes{kind="free"}')!;
    expect(size).toBeGreaterThan(0);
    expect(free).toBeGreaterThan(0);
    expect(free).toBeLessThanOrEqual(size);
  });

  it('reads the expiry of a signed bundle link, and nothing from other addresses', () => {
    expect(bundleLinkExpiry('https://docs.internal/v1/static-export/jobs/j1/bundle.zip?expires=1798761600&kid=k1&signature=abc')).toBe(1798761600);
    expect(bundleLinkExpiry('https://mirror.internal/site.zip')).toBeUndefined();
    expect(bundleLinkExpiry('/data/site.zip')).toBeUndefined();
    expect(bundleLinkExpiry(undefined)).toBeUndefined();
  });

  it('exposes every metric the shipped alert rules use', () => {
    const rules = YAML.parse(fs.readFileSync(path.join(packageRoot(), 'deploy/prometheus/alerts.yml'), 'utf8')) as { groups: { rules: { alert: string; expr: string; annotations: { summary: string } }[] }[] };
    const all = rules.groups.flatMap((g) => g.rules);
    expect(all.map((r) => r.alert)).toEqual(expect.arrayContaining(['DocsSiteNotServed', 'DocsBundleLinkExpiresSoon', 'DocsPublishesFailing', 'DocsExportQueueBacklog', 'DocsDiskFilling', 'DocsApplianceRestarting']));
    // The process metrics come from prom-client's defaults, collected by `serve` (not by test apps).
    const defaults = new client.Registry();
    client.collectDefaultMetrics({ register: defaults, prefix: 'docs_appliance_' });
    const exposed = new Set([...text.matchAll(/^# TYPE (\S+)/gm)].map((m) => m[1]!).concat(defaults.getMetricsAsArray().map((m) => m.name)));
    for (const r of all) {
      expect(r.annotations.summary, r.alert).toBeTruthy();
      for (const [name] of r.expr.matchAll(/docs_appliance_[a-z_]+/g)) expect(exposed.has(name.replace(/_(bucket|sum|count)$/, '')), `${r.alert}: ${name}`).toBe(true);
    }
  });
});
