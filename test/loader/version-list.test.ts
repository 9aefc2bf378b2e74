/**
 * Listing kept versions reads each manifest's summary once per manifest file (issue 37: derived
 * data of a big bundle is not parsed again and again on the main thread), and sees a manifest
 * that changed.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { listVersions, sitesRoot } from '../../app/loader/sites-dir.js';

let dir: string | undefined;
afterEach(() => {
  vi.restoreAllMocks();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('listing kept versions', () => {
  it('parses a manifest once, and again only when it changed', () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'version-list-'));
    const site = path.join(sitesRoot(dir), 'v1');
    fs.mkdirSync(site, { recursive: true });
    const manifest = path.join(site, 'manifest.json');
    const files = Array.from({ length: 2000 }, (_, i) => ({ path: `p${i}.html`, size: 1, sha256: 'a'.repeat(64) }));
    fs.writeFileSync(manifest, JSON.stringify({ version: 'v1', projectId: 'proj', createdAt: '2026-12-01T00:00:00.000Z', pageCount: 2000, files }));
    const parse = vi.spyOn(JSON, 'parse');
    expect(listVersions(dir)[0]).toMatchObject({ version: 'v1', projectId: 'proj', pageCount: 2000 });
    expect(listVersions(dir)[0]).toMatchObject({ version: 'v1' });
    expect(parse.mock.calls.filter(([text]) => String(text).includes('"files"'))).toHaveLength(1);
    fs.writeFileSync(manifest, JSON.stringify({ version: 'v1b', projectId: 'proj', pageCount: 3, files: [] }));
    expect(listVersions(dir)[0]).toMatchObject({ version: 'v1b', pageCount: 3 });
  });
});
