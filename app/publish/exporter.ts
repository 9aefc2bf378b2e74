import { createExportThread, type ExportRunner } from '../static-export/export-thread.js';

/** What a publish asks of the renderer: the docs root exported to one zip. */
export interface PublishExportRequest {
  sourceDir: string;
  outZip: string;
  projectId: string;
  domain: string;
  version: string;
  componentScripts?: boolean;
  /** The project has `auth`: the bundle carries its access map and fragment markers (issue 40). */
  readerAccess?: boolean;
  /** The policy the project's site is served with (app/site/site-csp.ts). */
  contentSecurityPolicy?: string;
  /** The slot's render memo: a change re-renders only the batches it touches (renderer/memo). */
  memoDir?: string;
  signal: AbortSignal;
}

/** Which render ran: `incremental` when the memo gave back any page, else `full`. */
export interface RenderSummary {
  mode: 'incremental' | 'full';
  pagesRendered: number;
  pagesReused: number;
}

export type PublishExporter = {
  /** `timings`: the renderer's wall milliseconds per stage (worker CPU sums left out). */
  run(request: PublishExportRequest): Promise<{ pageCount: number; timings: Record<string, number>; render?: RenderSummary }>;
  close(): Promise<void>;
};

/**
 * Exports in the export thread of their own (the same module static export uses), so a publish
 * never pauses the event loop that serves the API. Its render pool is started with the first
 * publish and closed on stop. No tar.gz twin is made: a publish serves the zip.
 */
export function threadExporter(threads: number, shared?: ExportRunner): PublishExporter {
  let runner: ExportRunner | undefined;
  return {
    async run(req) {
      // A shared runner belongs to whoever passed it in: close() leaves it up.
      runner ??= shared ?? createExportThread({ threads });
      const outcome = await runner.run(
        {
          sourceDir: req.sourceDir,
          outZip: req.outZip,
          jobId: `publish-${req.version}`,
          projectId: req.projectId,
          domain: req.domain,
          version: req.version,
          createdAt: new Date(),
          ...(req.componentScripts === false ? { componentScripts: false } : {}),
          ...(req.readerAccess ? { readerAccess: true } : {}),
          ...(req.contentSecurityPolicy ? { contentSecurityPolicy: req.contentSecurityPolicy } : {}),
          ...(req.memoDir ? { memoDir: req.memoDir } : {}),
        },
        { signal: req.signal, onProgress: () => undefined },
      );
      const timings = Object.fromEntries(Object.entries(outcome.timings).filter(([k]) => !k.startsWith('worker.')).map(([k, v]) => [k, Math.round(v)]));
      const memo = outcome.memo;
      const render: RenderSummary | undefined = memo ? { mode: memo.pagesReused > 0 ? 'incremental' : 'full', ...memo } : undefined;
      return { pageCount: outcome.pageCount, timings, ...(render ? { render } : {}) };
    },
    async close() {
      const r = runner;
      runner = undefined;
      if (r !== shared) await r?.close();
    },
  };
}
