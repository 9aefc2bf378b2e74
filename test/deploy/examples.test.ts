import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { parseConfig } from '../../config/load.js';

// The deployment examples are copied by operators as they are: every config they carry must pass
// the strict schema (an unknown or renamed key would stop the appliance at start-up).
const root = path.resolve(import.meta.dirname, '../..');
const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');

interface K8sObject {
  kind?: string;
  metadata?: { name?: string };
  data?: Record<string, string>;
  spec?: { template?: { spec?: { containers?: { env?: { name: string; value?: string }[] }[] } } };
}

const manifests = YAML.parseAllDocuments(read('deploy/kubernetes/docs-appliance.yaml')).map((d) => {
  expect(d.errors).toEqual([]);
  return d.toJS() as K8sObject;
});

describe('deployment examples', () => {
  it.each(['deploy/compose/appliance.json', 'deploy/compose/replica.json'])('%s is a valid config', (file) => {
    expect(() => parseConfig(JSON.parse(read(file)), { source: file })).not.toThrow();
  });

  it('replicas follow the appliance (sites and beacons), never serve the example docs', () => {
    const config = parseConfig(JSON.parse(read('deploy/compose/replica.json')));
    expect(config.replica.upstreamUrl).toBe('http://appliance:3000');
    expect(config.replica.upstreamSiteUrl).toBe('http://appliance:8080');
    expect(config.staticExport.enabled).toBe(false);
    expect(config.site.exampleOnFirstStart).toBe(false);
    expect(config.organizations).toEqual([]);
    expect(config.stateDir).toBe('/data');
  });

  it('every config.json in the Kubernetes ConfigMaps is a valid config', () => {
    const maps = manifests.filter((m) => m.kind === 'ConfigMap' && m.data?.['config.json']);
    expect(maps.map((m) => m.metadata?.name).sort()).toEqual(['docs-appliance-config', 'docs-site-config']);
    for (const m of maps) {
      expect(() => parseConfig(JSON.parse(m.data!['config.json']!), { source: m.metadata?.name })).not.toThrow();
    }
  });

  it('the compose file and the manifests use only environment variables the appliance reads', () => {
    const known = new Set(read('config/load.ts').match(/DOCS_APPLIANCE_[A-Z_]+/g));
    const compose = YAML.parse(read('deploy/compose/compose.yaml')) as { services: Record<string, { environment?: Record<string, string> }> };
    const names = [
      ...Object.values(compose.services).flatMap((s) => Object.keys(s.environment ?? {})),
      ...manifests.flatMap((m) => m.spec?.template?.spec?.containers?.flatMap((c) => (c.env ?? []).map((e) => e.name)) ?? []),
    ].filter((n) => n.startsWith('DOCS_APPLIANCE_'));
    expect(names.length).toBeGreaterThan(0);
    expect(names.filter((n) => !known.has(n))).toEqual([]);
  });

  // podman-compose 1.0.3 (Debian 12), which the container proof runs the compose file with, reads
  // `${VAR:-}` as literal text (a webhook secret of "${DOCS_WEBHOOK_SECRET:-}"), fails every
  // command on `${VAR:?…}` while the variable is unset (so `up -d appliance` failed before the
  // replica key could be made), and breaks a list-form healthcheck on the second replica.
  it('the compose file uses only the variable forms and healthchecks podman-compose 1.0.3 runs', () => {
    const text = read('deploy/compose/compose.yaml').replace(/^\s*#.*$/gm, '');
    const forms = [...text.matchAll(/\$\{[^}]*\}/g)].map((m) => m[0]);
    expect(forms.length).toBeGreaterThan(0);
    expect(forms.filter((f) => !/^\$\{[A-Z_][A-Z0-9_]*(:-[^}]+)?\}$/.test(f))).toEqual([]);
    const compose = YAML.parse(read('deploy/compose/compose.yaml')) as { services: Record<string, { healthcheck?: { test?: unknown } }> };
    const healthchecks = Object.values(compose.services).flatMap((s) => (s.healthcheck ? [s.healthcheck.test] : []));
    expect(healthchecks.length).toBeGreaterThan(0);
    for (const test of healthchecks) expect(typeof test).toBe('string');
  });
});
