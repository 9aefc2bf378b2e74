import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { listVersions } from '../loader/sites-dir.js';

/**
 * Where a project's sites live. Each slot is laid out like the single-site state dir the loader
 * knows (`<slot>/sites/<version>`, `<slot>/sites/ACTIVE`), so the loader's own verification,
 * extraction, pointer and pruning work on it unchanged; `<slot>/bundles/<version>.zip` keeps
 * the verified archive of each kept version for replicas.
 */
export const publishedSlot = (stateDir: string, projectId: string) => path.join(stateDir, 'published', projectId);
export const previewSlot = (stateDir: string, projectId: string, host: string) => path.join(stateDir, 'previews', projectId, host);
export const bundlesDir = (slot: string) => path.join(slot, 'bundles');
export const bundleFile = (slot: string, dirName: string) => path.join(bundlesDir(slot), `${dirName}.zip`);
/** What the slot's last export rendered, for the next one to reuse (renderer/memo); a cache, never backed up. */
export const renderMemoDir = (slot: string) => path.join(slot, 'render-memo');

/** Remove kept archives whose version the loader's pruning removed. */
export function pruneBundles(slot: string): void {
  const kept = new Set(listVersions(slot).map((v) => `${v.name}.zip`));
  let names: string[];
  try {
    names = fs.readdirSync(bundlesDir(slot));
  } catch {
    return;
  }
  for (const n of names) if (!kept.has(n)) fs.rmSync(path.join(bundlesDir(slot), n), { force: true });
}

/**
 * A branch as one DNS label (for the preview host pattern): lowercase letters, digits and `-`;
 * when that changed the name (`feature/Login` → `feature-login`), a short hash of the real name
 * is added, so two branches never share a preview host.
 */
export function branchLabel(branch: string): string {
  const slug = branch
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '');
  if (slug === branch && slug.length <= 63 && slug) return slug;
  const hash = crypto.createHash('sha256').update(branch).digest('hex').slice(0, 6);
  return `${slug.slice(0, 56) || 'branch'}-${hash}`;
}
