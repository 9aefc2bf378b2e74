import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import JSZip from 'jszip';
import type { Response } from 'supertest';
import { expect } from 'vitest';
import type { TestAppliance } from '../helpers/appliance.js';
import type { BundleManifest } from '../../renderer/types.js';

export interface JobBody {
  jobId: string;
  status: 'queued' | 'running' | 'completed' | 'failed';
  progress: number;
  pageCount: number;
  domain?: string;
  version?: string;
  createdAt: string;
  updatedAt: string;
  error?: string;
}

export interface BundleBody {
  jobId: string;
  bundleUrl: string;
  sizeBytes: number;
  expiresAt: string;
  format: 'tar.gz' | 'zip';
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Start an export through the API and return the 202 body. */
export async function startExport(t: TestAppliance, key: string, body: Record<string, unknown> = { domain: 'docs.test.internal' }): Promise<JobBody> {
  const res = await t.api(key).post('/v1/static-export/jobs').send(body).expect(202);
  return res.body as JobBody;
}

/** Poll the job until `done(job)` (default: a final status); every observation is returned. */
export async function pollJob(
  t: TestAppliance,
  key: string,
  jobId: string,
  opts: { until?: (job: JobBody) => boolean; intervalMs?: number; timeoutMs?: number } = {},
): Promise<JobBody[]> {
  const until = opts.until ?? ((j) => j.status === 'completed' || j.status === 'failed');
  const deadline = Date.now() + (opts.timeoutMs ?? 60_000);
  const seen: JobBody[] = [];
  for (;;) {
    const res = await t.api(key).get(`/v1/static-export/jobs/${jobId}`).expect(200);
    const job = res.body as JobBody;
    seen.push(job);
    if (until(job)) return seen;
    if (Date.now() > deadline) throw new Error(`job ${jobId} still ${job.status} at ${job.progress}% after ${opts.timeoutMs ?? 60_000} ms`);
    await sleep(opts.intervalMs ?? 25);
  }
}

/** supertest parser that keeps a binary body as one Buffer. */
export function binary(res: Response, cb: (err: Error | null, body: Buffer) => void): void {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => cb(null, Buffer.concat(chunks)));
}

/** The path and query of a bundleUrl, for supertest (which talks to the app, not a host). */
export function linkPath(bundleUrl: string): string {
  const u = new URL(bundleUrl);
  return `${u.pathname}${u.search}`;
}

/** Unzip a bundle and check every file against manifest.json (size and sha256). */
export async function checkBundleAgainstManifest(zipBytes: Buffer) {
  const zip = await JSZip.loadAsync(zipBytes);
  const manifestFile = zip.file('manifest.json');
  expect(manifestFile, 'manifest.json at the bundle root').not.toBeNull();
  const manifest = JSON.parse(await manifestFile!.async('string')) as BundleManifest;
  const { createHash } = await import('node:crypto');
  const inZip = Object.values(zip.files).filter((f) => !f.dir).map((f) => f.name).filter((n) => n !== 'manifest.json').sort();
  expect(manifest.files.map((f) => f.path).sort()).toEqual(inZip);
  for (const f of manifest.files) {
    const bytes = await zip.file(f.path)!.async('nodebuffer');
    expect(bytes.length, f.path).toBe(f.size);
    expect(createHash('sha256').update(bytes).digest('hex'), f.path).toBe(f.sha256);
  }
  return { manifest, names: inZip, zip };
}

/**
 * Pipe a tar.gz bundle through a real `tar xz` (as `curl "$bundleUrl" | tar xz` does) into a
 * temp dir and check every file against manifest.json there (size and sha256); the dir is removed.
 */
export async function checkTarGzAgainstManifest(tarGz: Buffer) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bundle-tar-'));
  try {
    await new Promise<void>((resolve, reject) => {
      const tar = spawn('tar', ['xz', '-C', dir], { stdio: ['pipe', 'ignore', 'pipe'] });
      let err = '';
      tar.stderr.on('data', (c: Buffer) => (err += c.toString()));
      tar.on('error', reject);
      tar.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`tar xz exited with ${code}: ${err}`))));
      tar.stdin.end(tarGz);
    });
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as BundleManifest;
    const names = (fs.readdirSync(dir, { recursive: true }) as string[]).filter((n) => fs.statSync(path.join(dir, n)).isFile() && n !== 'manifest.json').sort();
    expect(manifest.files.map((f) => f.path).sort()).toEqual(names);
    const { createHash } = await import('node:crypto');
    for (const f of manifest.files) {
      const bytes = fs.readFileSync(path.join(dir, f.path));
      expect(bytes.length, f.path).toBe(f.size);
      expect(createHash('sha256').update(bytes).digest('hex'), f.path).toBe(f.sha256);
    }
    return { manifest, names };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** A docs.json site of `count` generated pages in one group per 100, for exports that take a while. */
export function writeGeneratedDocs(dir: string, count: number): string {
  fs.rmSync(dir, { recursive: true, force: true });
  const groups: { group: string; pages: string[] }[] = [];
  for (let i = 0; i < count; i++) {
    const section = `section-${Math.floor(i / 100)}`;
    const slug = `${section}/page-${i}`;
    fs.mkdirSync(path.join(dir, section), { recursive: true });
    const body = [
      '---',
      `title: Generated page ${i}`,
      `description: Page ${i} of ${count}, generated for export tests.`,
      '---',
      '',
      `## Overview ${i}`,
      '',
      `This page explains topic ${i}. See [the next page](/${section}/page-${(i + 1) % count}) for more.`,
      '',
      '- first point about the pipeline',
      '- second point about the queue',
      '',
      '| Option | Default |',
      '| --- | --- |',
      `| threads | ${i % 8} |`,
      '',
      '```ts',
      `export const page${i} = { id: ${i}, title: "Generated page ${i}" };`,
      '```',
      '',
      '<Note>Generated content.</Note>',
      '',
    ].join('\n');
    fs.writeFileSync(path.join(dir, `${slug}.mdx`), body);
    let group = groups[groups.length - 1];
    if (!group || group.group !== section) groups.push((group = { group: section, pages: [] }));
    group.pages.push(slug);
  }
  fs.writeFileSync(path.join(dir, 'docs.json'), JSON.stringify({ name: 'Generated', colors: { primary: '#0d9373' }, navigation: { groups } }));
  return dir;
}
