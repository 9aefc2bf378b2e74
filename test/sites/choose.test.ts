import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ServedSite } from '../../app/site/served-site.js';
import { chooseSite } from '../../app/sites/choose.js';
import { createSiteRegistry, hostName } from '../../app/sites/registry.js';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'choose-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
const site = (name: string, projectId: string | null) => {
  fs.mkdirSync(path.join(root, name), { recursive: true });
  return new ServedSite(path.join(root, name), name, false, projectId);
};
const A = 'a'.repeat(24);
const B = 'b'.repeat(24);

describe('which site a host name gets (docs/publishing.md)', () => {
  it('reads the Host header as a bare lowercase name', () => {
    expect(hostName('Docs.Example.Internal:8080')).toBe('docs.example.internal');
    expect(hostName('docs.example.internal.')).toBe('docs.example.internal');
    expect(hostName('[::1]:80')).toBe('::1');
    expect(hostName(undefined)).toBe('');
  });

  it('keeps the single-site behaviour while nothing is published: every host, or 503 with nothing', () => {
    const single = site('single', A);
    expect(chooseSite(createSiteRegistry(), single, 'anything', undefined)).toEqual({ site: single, preview: false });
    expect(chooseSite(createSiteRegistry(), undefined, 'anything', undefined)).toEqual({ site: undefined, reason: 'nothing-served' });
  });

  it('serves each published project at its domain, previews at theirs, and the default elsewhere', () => {
    const registry = createSiteRegistry();
    registry.setDomains([
      { id: A, domain: 'a.internal' },
      { id: B, domain: 'b.internal' },
    ]);
    const a = site('a1', A);
    const preview = site('a-preview', A);
    registry.setPublished(A, a);
    registry.setPreview('x.preview.a.internal', A, preview);
    expect(chooseSite(registry, undefined, 'A.internal:80', undefined)).toEqual({ site: a, preview: false });
    expect(chooseSite(registry, undefined, 'x.preview.a.internal', undefined)).toEqual({ site: preview, preview: true });
    // B has nothing published: not A's site, and not a single-site bundle of A either.
    expect(chooseSite(registry, site('single-a', A), 'b.internal', undefined)).toEqual({ site: undefined, reason: 'not-here' });
    // ...but a single-site bundle of B (or of no project) is B's.
    const singleB = site('single-b', B);
    expect(chooseSite(registry, singleB, 'b.internal', undefined).site).toBe(singleB);
    // Unknown host: the only published site, then the single-site bundle, then publish.defaultProject.
    expect(chooseSite(registry, undefined, '10.0.0.5', undefined).site).toBe(a);
    expect(chooseSite(registry, singleB, '10.0.0.5', undefined).site).toBe(singleB);
    const b = site('b1', B);
    registry.setPublished(B, b);
    expect(chooseSite(registry, undefined, '10.0.0.5', undefined)).toEqual({ site: undefined, reason: 'not-here' });
    expect(chooseSite(registry, singleB, '10.0.0.5', A).site).toBe(a);
  });
});
