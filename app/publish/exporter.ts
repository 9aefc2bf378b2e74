import fs from 'node:fs';
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
  signal: AbortSignal;
}

export type PublishExporter = {
  /** `timings`: the renderer's wall milliseconds per stage (worker CPU sums left out). */
  run(request: PublishExportRequest): Promise<{ pageCount: number; timings: Record<string, number> }>;
  close(): Promise<void>;
};

/**
 * Exports in the export thread of their own (the same module static export uses), so a publish
 * never pauses the event loop that serves the API. Its render pool is started with the first
 * publish and closed on stop. The tar.gz twin the thread writes is not needed here.
 */
export function threadExporter(threads: number, shared?: ExportRunner): PublishExporter {
  let runner: ExportRunner | undefined;
  return {
    async run(req) {
      // A shared runner belongs to whoever passed it in: close() leaves it up.
      runner ??= shared ?? createExportThread({ threads });
      const outTarGz = `${req.outZip}.tar.gz`;
      try {
        const outcome = await runner.run(
          {
            sourceDir: req.sourceDir,
            outZip: req.outZip,
            outTarGz,
            jobId: `publish-${req.version}`,
            projectId: req.projectId,
            domain: req.domain,
            version: req.version,
            createdAt: new Date(),
            ...(req.componentScripts === false ? { componentScripts: false } : {}),
            ...(req.readerAccess ? { readerAccess: true } : {}),
            ...(req.contentSecurityPolicy ? { contentSecurityPolicy: req.contentSecurityPolicy } : {}),
          },
          { signal: req.signal, onProgress: () => undefined },
        );
        const timings = Object.fromEntries(Object.entries(outcome.timings).filter(([k]) => !k.startsWith('worker.') && k !== 'tarGz').map(([k, v]) => [k, Math.round(v)]));
        return { pageCount: outcome.pageCount, timings };
      } finally {
        fs.rmSync(outTarGz, { force: true });
      }
    },
    async close() {
      const r = runner;
      runner = undefined;
      if (r !== shared) await r?.close();
    },
  };
}
