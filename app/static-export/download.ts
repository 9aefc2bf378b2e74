import fs from 'node:fs';
import { Router, type RequestHandler } from 'express';
import { ApiError, errors } from '../errors.js';
import type { AppContext } from '../context.js';
import { BUNDLE_FORMATS, BUNDLE_INCLUDES, type BundleFormat, type BundleInclude, type ExportFiles } from './files.js';
import { JOB_ID_PATTERN } from './request-body.js';
import { bundlePath, canonicalLink, verifyBundleLink } from './signed-link.js';

/**
 * GET/HEAD /v1/static-export/jobs/{jobId}/bundle.tar.gz (and bundle.zip)?expires&kid&signature: the signed download.
 * A link signs its path, so a link to one format does not open the other.
 * Mounted before admin-key auth (the signature is the credential). Streams from disk through
 * `send` (express's sendFile): Range, If-Range, If-None-Match, HEAD and Content-Length. The ETag
 * is strong and derived from the job id and size: a job's bundles are packed once and never change.
 */
export function createDownloadRouter(ctx: AppContext, files: ExportFiles): Router {
  const router = Router();
  // `bundle.all.*`: the every-file twin of a bundle with reader access, signed only for `include: "all"`.
  for (const include of BUNDLE_INCLUDES) for (const format of BUNDLE_FORMATS) router.get(bundlePath(':jobId', format, include), download(format, include));
  return router;

  function download(format: BundleFormat, include: BundleInclude): RequestHandler {
    return (req, res, next) => {
      const jobId = String(req.params.jobId);
      if (!JOB_ID_PATTERN.test(jobId)) throw errors.forbidden('INVALID_LINK', 'Bundle link signature is invalid');
      // The raw URL, not Express's decoded, case-folded view of it: only the issued spelling counts.
      const q = req.originalUrl.indexOf('?');
      const form = canonicalLink(q === -1 ? req.originalUrl : req.originalUrl.slice(0, q), q === -1 ? '' : req.originalUrl.slice(q + 1), bundlePath(jobId, format, include));
      if (!form.ok) throw errors.forbidden('INVALID_LINK', form.reason);
      const check = verifyBundleLink(ctx.secrets, bundlePath(jobId, format, include), form.query, ctx.clock.now());
      if (!check.ok) throw errors.forbidden('INVALID_LINK', check.reason);
      const job = ctx.stores.exportJobs.get(jobId);
      if (!job || job.status !== 'completed') throw errors.jobNotFound();
      const file = files.of(jobId, format, include);
      if (job.filesDeletedAt || !fs.existsSync(file)) {
        throw new ApiError(404, 'EXPORT_REMOVED', 'The files of this export were removed by the retention policy; start a new export');
      }
      res.attachment(`${job.domain}-${jobId}.${format}`);
      // Express would call a .gz file application/gzip too; said outright, whatever its mime table says.
      if (format === 'tar.gz') res.type('application/gzip');
      const size = format === 'zip' && include === 'public' ? (job.sizeBytes ?? fs.statSync(file).size) : fs.statSync(file).size;
      res.setHeader('ETag', `"${jobId}-${include === 'all' ? 'all-' : ''}${format === 'zip' ? '' : 'tgz-'}${size.toString(16)}"`);
      // The link is a credential: shared caches must not keep the response.
      res.setHeader('Cache-Control', 'private, no-cache');
      res.sendFile(file, { acceptRanges: true, cacheControl: false, lastModified: false, dotfiles: 'allow' }, (err?: Error & { status?: number; headers?: Record<string, string> }) => {
        if (!err) return;
        if (res.headersSent) {
          // The client went away mid-download (or the disk failed): nothing more can be said to it.
          if ((err as NodeJS.ErrnoException).code !== 'ECONNABORTED') ctx.log.warn({ reqId: req.id, jobId, err: err.message }, 'bundle download interrupted');
          return;
        }
        // An error answers in JSON, not as the archive the headers above announced.
        res.removeHeader('Content-Disposition');
        res.removeHeader('Content-Type');
        if (err.status === 416) {
          for (const [k, v] of Object.entries(err.headers ?? {})) res.setHeader(k, v);
          return next(new ApiError(416, 'RANGE_NOT_SATISFIABLE', `Range not satisfiable: the bundle is ${size} bytes`));
        }
        if (err.status === 412) return next(new ApiError(412, 'PRECONDITION_FAILED', 'The bundle does not match the If-Match / If-Unmodified-Since condition'));
        next(err);
      });
    };
  }
}
