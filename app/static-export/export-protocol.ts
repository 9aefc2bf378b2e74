import type { WarningSummary } from '../loader/render-warnings.js';
import type { MessagePort } from 'node:worker_threads';
import type { RenderFailure } from '../../renderer/index.js';

/** What the queue asks of an export (everything but the pool, the signal and the callback). */
export interface ExportRequest {
  sourceDir: string;
  outZip: string;
  /** Where the tar.gz twin of the finished zip goes; none: no twin (a publish serves the zip). */
  outTarGz?: string;
  /** Where a bundle with reader access puts its `include: "all"` zip and tar.gz (access-variants.ts). */
  outAllZip?: string;
  outAllTarGz?: string;
  jobId: string;
  projectId: string;
  domain: string;
  version: string;
  createdAt: Date;
  paths?: string[];
  keepGoing?: boolean;
  /** False: the project's operator turned component scripts off (config `projects[].componentScripts`). */
  componentScripts?: boolean;
  /** The policy the project's site is served with (app/site/site-csp.ts), written into every page. */
  contentSecurityPolicy?: string;
  /** The site's render memo (renderer/memo): unchanged batches are reused. */
  memoDir?: string;
}

export interface ExportOutcome {
  pageCount: number;
  sizeBytes: number | null;
  tarGzBytes: number;
  /** The render warnings, counted by kind and the first ones listed. */
  warnings: WarningSummary;
  /** Pages a keepGoing export left out. */
  failures: RenderFailure[];
  timings: Record<string, number>;
  /** With `memoDir`: pages reused from the memo and pages rendered. */
  memo?: { pagesReused: number; pagesRendered: number };
}

export interface ExportFailure {
  message: string;
  stack: string | undefined;
  /** Pages or the config could not be rendered: the message lists the first files as file:line. */
  exportError: boolean;
  failures: number;
  aborted: boolean;
}

/**
 * A task of the export thread: run one export (progress and abort over `port`), check a `paths`
 * list against a site's pages, or close the render pool.
 */
export type ExportTask =
  | { type: 'run'; request: ExportRequest; threads: number; port: MessagePort }
  | { type: 'checkPaths'; sourceDir: string; paths: string[] }
  | { type: 'close' };

export type ExportTaskResult =
  | { ok: true; outcome: ExportOutcome | null; unknownPaths?: string[] }
  | { ok: false; error: ExportFailure };
