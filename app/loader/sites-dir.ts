import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { SettingsStore } from '../../data/stores/settings.js';
import { tryRemoveTree } from '../fs-tree.js';
import type { Logger } from '../logger.js';
import { MANIFEST_FILE } from './manifest.js';
import { summariseWarnings, type WarningSummary } from './render-warnings.js';
import { isReservedDirName } from './version-name.js';

/**
 * The extracted sites under `<stateDir>/sites`: one directory per version, temp work in
 * dot-directories on the same filesystem (so activation is a rename), and the active pointer
 * (`ACTIVE`, written temp-then-rename, mirrored in the settings store).
 */

export const ACTIVE_FILE = 'ACTIVE';

export interface ActiveRecord {
  version: string;
  /** Absolute directory served: `<stateDir>/sites/<name>`, or a mounted directory. */
  dir: string;
  projectId: string | null;
  /** True for a mounted directory (served in place; never pruned). */
  mounted: boolean;
  /** Where it came from (a URL with any signature redacted, or a path). */
  source: string;
  activatedAt: string;
  /** Set by `sites rollback`: the staticExport source it overrides, until that source changes. */
  rollback?: { bundleUrl: string | null; version: string | null };
}

export interface SiteVersion {
  name: string;
  dir: string;
  version: string;
  projectId: string | null;
  createdAt: string | null;
  pageCount: number | null;
  lastActivated: Date;
  /** The bundle's render warnings (manifest.json), counted and the first ones listed; null without a manifest. */
  warnings: WarningSummary | null;
}

export const sitesRoot = (stateDir: string): string => path.join(stateDir, 'sites');

/** A version label as a directory name: kept when already safe, else sanitised plus a short hash. */
export function versionDirName(version: string): string {
  if (/^[A-Za-z0-9][A-Za-z0-9._+-]{0,127}$/.test(version) && !version.includes('..') && !isReservedDirName(version)) return version;
  const hash = crypto.createHash('sha256').update(version).digest('hex').slice(0, 8);
  const base = version.replace(/[^A-Za-z0-9._+-]/g, '_').replace(/\.\.+/g, '_').replace(/^[^A-Za-z0-9]+/, '').slice(0, 100);
  return `${base || 'v'}-${hash}`;
}

/** A fresh temp path inside sites/ (same filesystem as the version dirs). */
export function tempPath(stateDir: string, kind: 'extract' | 'download' | 'old' | 'example' | 'spare'): string {
  const root = sitesRoot(stateDir);
  fs.mkdirSync(root, { recursive: true });
  return path.join(root, `.${kind}-${crypto.randomBytes(6).toString('hex')}`);
}

/** Temp names the loader gives its own work in sites/ (tempPath, writeActive). */
export const TEMP_NAME = /^\.(extract|download|old|example|ACTIVE|spare)-[0-9a-f]+$/;

/**
 * Remove temp leftovers of a crash (dot-entries in sites/); never touches version dirs. Run once
 * at start-up, and never a reason not to start: what cannot be removed is logged and left for
 * the next start (it is never served).
 */
export function removeStaleTemps(stateDir: string, log?: Logger): void {
  const root = sitesRoot(stateDir);
  let names: string[];
  try {
    names = fs.readdirSync(root);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') log?.warn({ dir: root, err: (err as Error).message }, 'cannot list sites/ for temp leftovers; skipped');
    return;
  }
  for (const name of names) {
    if (!TEMP_NAME.test(name)) continue;
    const failure = tryRemoveTree(path.join(root, name));
    if (failure) log?.warn({ dir: path.join(root, name), err: failure.message }, 'cannot remove a temp leftover in sites/; it is never served, and removal is tried again at the next start');
  }
}

export function readActive(stateDir: string, settings?: SettingsStore): ActiveRecord | undefined {
  try {
    const parsed = JSON.parse(fs.readFileSync(path.join(sitesRoot(stateDir), ACTIVE_FILE), 'utf8')) as ActiveRecord;
    if (typeof parsed.version === 'string' && typeof parsed.dir === 'string') return parsed;
  } catch {
    // fall through to the settings mirror (a state dir restored without the file)
  }
  const version = settings?.get('site.active.version');
  const dir = settings?.get('site.active.dir');
  if (!version || !dir) return undefined;
  return { version, dir, projectId: settings?.get('site.active.projectId') ?? null, mounted: !dir.startsWith(sitesRoot(stateDir) + path.sep), source: dir, activatedAt: '' };
}

/** Persist the pointer: the file by write-temp-then-rename (never half-written), then settings. */
export function writeActive(stateDir: string, record: ActiveRecord, settings?: SettingsStore): void {
  const root = sitesRoot(stateDir);
  fs.mkdirSync(root, { recursive: true });
  const tmp = path.join(root, `.ACTIVE-${crypto.randomBytes(4).toString('hex')}`);
  fs.writeFileSync(tmp, JSON.stringify(record, null, 2) + '\n');
  const pointer = path.join(root, ACTIVE_FILE);
  // A state dir from before version names were checked may hold a bundle extracted to sites/ACTIVE:
  // moved aside (and removed at the next start) so the pointer can be written again.
  if (fs.lstatSync(pointer, { throwIfNoEntry: false })?.isDirectory()) fs.renameSync(pointer, path.join(root, `.old-${crypto.randomBytes(6).toString('hex')}`));
  fs.renameSync(tmp, pointer);
  if (settings) {
    settings.set('site.active.version', record.version);
    settings.set('site.active.dir', record.dir);
    if (record.projectId) settings.set('site.active.projectId', record.projectId);
    else settings.delete('site.active.projectId');
  }
  // Last activation time orders versions for pruning and `sites list`.
  if (!record.mounted) {
    const now = new Date();
    fs.utimesSync(record.dir, now, now);
  }
}

type ManifestSummary = { version?: unknown; projectId?: unknown; createdAt?: unknown; pageCount?: unknown; warnings: WarningSummary };
const summaries = new Map<string, { key: string; summary: ManifestSummary }>();

/**
 * The few fields of a kept version's manifest that a listing shows, parsed once per manifest file
 * (by path, size and time): a manifest of a big site is megabytes, and the console, the CLI and
 * replicas list versions often.
 */
function manifestSummary(file: string): ManifestSummary {
  const st = fs.statSync(file);
  const key = `${st.size}:${st.mtimeMs}:${st.ino}`;
  const known = summaries.get(file);
  if (known?.key === key) return known.summary;
  const m = JSON.parse(fs.readFileSync(file, 'utf8')) as Omit<ManifestSummary, 'warnings'> & { warnings?: unknown; files?: { path?: unknown }[] };
  const files = new Set((Array.isArray(m.files) ? m.files : []).map((f) => f?.path));
  const summary: ManifestSummary = { version: m.version, projectId: m.projectId, createdAt: m.createdAt, pageCount: m.pageCount, warnings: summariseWarnings(m.warnings, (rel) => files.has(rel)) };
  if (summaries.size >= 1_000) summaries.clear();
  summaries.set(file, { key, summary });
  return summary;
}

export function listVersions(stateDir: string): SiteVersion[] {
  const root = sitesRoot(stateDir);
  if (!fs.existsSync(root)) return [];
  const out: SiteVersion[] = [];
  for (const d of fs.readdirSync(root, { withFileTypes: true })) {
    if (!d.isDirectory() || isReservedDirName(d.name)) continue;
    const dir = path.join(root, d.name);
    let version = d.name;
    let projectId: string | null = null;
    let createdAt: string | null = null;
    let pageCount: number | null = null;
    let warnings: WarningSummary | null = null;
    try {
      const m = manifestSummary(path.join(dir, MANIFEST_FILE));
      if (typeof m.version === 'string') version = m.version;
      if (typeof m.projectId === 'string') projectId = m.projectId;
      if (typeof m.createdAt === 'string') createdAt = m.createdAt;
      if (typeof m.pageCount === 'number') pageCount = m.pageCount;
      warnings = m.warnings;
    } catch {
      // a bundle without a manifest (tarball): the directory name is its version
    }
    out.push({ name: d.name, dir, version, projectId, createdAt, pageCount, lastActivated: fs.statSync(dir).mtime, warnings });
  }
  return out.sort((a, b) => b.lastActivated.getTime() - a.lastActivated.getTime() || (a.name < b.name ? 1 : -1));
}

/**
 * Keep the `keep` most recently activated versions; the active one is never removed. A version
 * that cannot be removed is logged and tried again at the next activation.
 */
export function pruneVersions(stateDir: string, keep: number, activeDir: string | undefined, log?: Logger): string[] {
  const removed: string[] = [];
  let kept = 0;
  for (const v of listVersions(stateDir)) {
    if (v.dir === activeDir) {
      kept += 1;
      continue;
    }
    if (kept < keep) {
      kept += 1;
      continue;
    }
    const failure = tryRemoveTree(v.dir);
    if (failure) log?.warn({ dir: v.dir, err: failure.message }, 'cannot remove an old site version; tried again at the next activation');
    else removed.push(v.name);
  }
  return removed;
}
