import fs from 'node:fs';
import type { AppContext } from '../context.js';
import { loadBundle, type LoadedSite } from '../loader/load-bundle.js';
import { tempPath } from '../loader/sites-dir.js';
import { exampleDocsDir } from '../paths.js';

/** The renderer's exportSite, narrowed to what the first-start export uses (injectable in tests). */
export type ExportFn = (opts: {
  sourceDir: string;
  outZip: string;
  projectId: string;
  domain: string;
  version: string;
  signal?: AbortSignal;
}) => Promise<{ pageCount: number }>;

/** The `source` of the example's active record: how the console tells the example from a configured bundle. */
export const EXAMPLE_SOURCE = 'example docs (first start)';

/** The renderer is loaded only when this runs: a configured appliance never pays for it. */
export const rendererExport: ExportFn = async (opts) => {
  const { exportSite } = await import('../../renderer/index.js');
  return exportSite(opts);
};

/**
 * The project a newcomer's first start shows: the one on the bundled example docs, or the only
 * project there is. Undefined when the choice is not obvious (several projects declared).
 */
export function exampleProject(ctx: AppContext) {
  const projects = ctx.stores.projects.list();
  const example = exampleDocsDir();
  const chosen = projects.find((p) => p.sourceDir === example) ?? (projects.length === 1 ? projects[0] : undefined);
  // A project published from git has no directory to export here (the publish service serves it).
  return chosen?.sourceDir ? { ...chosen, sourceDir: chosen.sourceDir } : undefined;
}

/** What a first start exports, as its log lines name it: the only project there is may be the operator's own. */
export function firstStartLabel(project: { name: string; sourceDir: string }): string {
  return project.sourceDir === exampleDocsDir() ? 'the example docs' : `project "${project.name}" (${project.sourceDir})`;
}

/**
 * Export the example project to a zip in the state dir, then verify and extract it through the
 * same path as any bundle. The caller activates the result; a failure is the caller's to report.
 */
export async function exportExample(ctx: AppContext, exporter: ExportFn, signal: AbortSignal): Promise<LoadedSite | undefined> {
  const project = exampleProject(ctx);
  if (!project) return undefined;
  const zip = tempPath(ctx.config.stateDir, 'example');
  const version = `example-${new Date().toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z')}`;
  const cfg = ctx.config.staticExport;
  try {
    const started = Date.now();
    const result = await exporter({ sourceDir: project.sourceDir, outZip: zip, projectId: project.id, domain: project.domain, version, signal });
    ctx.log.info({ projectId: project.id, sourceDir: project.sourceDir, pages: result.pageCount, ms: Date.now() - started }, `first start: exported ${firstStartLabel(project)}`);
    return await loadBundle({
      stateDir: ctx.config.stateDir,
      bundleUrl: zip,
      version,
      limits: { maxEntries: cfg.maxEntries, maxUncompressedBytes: cfg.maxUncompressedBytes },
      verifyTimeoutMs: cfg.verifyTimeoutMs,
      fetch: cfg.fetch,
      signal,
      log: ctx.log,
    });
  } finally {
    fs.rmSync(zip, { force: true });
  }
}
