import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { rawTar } from './raw-tar.js';
import { rawZip, type RawZipEntry } from './raw-zip.js';

export type SiteFiles = Record<string, string | Buffer>;

/** A small site in the renderer's output shape: pages as `.html`, hashed assets, 404, search index. */
export function sampleSite(label = 'v1'): SiteFiles {
  return {
    'index.html': `<!doctype html><title>Home ${label}</title><p>Welcome (${label}).</p>`,
    'guides/intro.html': `<!doctype html><title>Intro ${label}</title><p>${'Install the thing. '.repeat(200)}</p>`,
    'guides/index.html': `<!doctype html><title>Guides ${label}</title>`,
    '404.html': '<!doctype html><title>Not found</title><p>This page does not exist.</p>',
    '_static/site.3f2a9c1b.css': `body { color: #123; } ${'.x { margin: 0 } '.repeat(100)}`,
    '_assets/images/logo.0123abcd.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3, 4, 5]),
    '_search/index.json': JSON.stringify({ documents: [{ id: 'index', title: 'Home' }] }),
    'robots.txt': 'User-agent: *\n',
  };
}

export function sha256(data: string | Buffer): string {
  return crypto.createHash('sha256').update(data).digest('hex');
}

/** manifest.json for these files, as the renderer writes it (format 1). */
export function manifestFor(files: SiteFiles, version: string, overrides: Record<string, unknown> = {}): string {
  return JSON.stringify({
    format: 1,
    jobId: 'se_0123456789abcdef',
    projectId: 'aaaaaaaaaaaaaaaaaaaaaaaa',
    domain: 'docs.test.internal',
    version,
    createdAt: '2026-11-01T00:00:00.000Z',
    pageCount: Object.keys(files).filter((f) => f.endsWith('.html')).length,
    files: Object.keys(files)
      .sort()
      .map((p) => ({ path: p, size: Buffer.byteLength(files[p]!), sha256: sha256(files[p]!) })),
    warnings: [],
    ...overrides,
  });
}

/** A valid zip bundle (manifest included) with optional extra raw entries appended. */
export function zipBundle(files: SiteFiles, version: string, extra: RawZipEntry[] = [], manifest = manifestFor(files, version)): Buffer {
  const entries: RawZipEntry[] = Object.entries(files).map(([name, data]) => ({ name, data: Buffer.from(data), deflate: true }));
  entries.push({ name: 'manifest.json', data: manifest, deflate: true }, ...extra);
  return rawZip(entries);
}

export function tarBundle(files: SiteFiles, version?: string): Buffer {
  const entries = Object.entries(files).map(([name, data]) => ({ name, data: Buffer.from(data) }));
  if (version) entries.push({ name: 'manifest.json', data: Buffer.from(manifestFor(files, version)) });
  return rawTar(entries);
}

export function writeFile(dir: string, name: string, data: Buffer): string {
  const file = path.join(dir, name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, data);
  return file;
}

/** The site as a plain directory (a mounted bundleUrl). */
export function writeSiteDir(dir: string, files: SiteFiles, version?: string): string {
  for (const [name, data] of Object.entries(files)) writeFile(dir, name, Buffer.from(data));
  if (version) fs.writeFileSync(path.join(dir, 'manifest.json'), manifestFor(files, version));
  return dir;
}
