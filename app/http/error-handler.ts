import type { ErrorRequestHandler, RequestHandler } from 'express';
import { ApiError, errors, storageError } from '../errors.js';
import type { Logger } from '../logger.js';

/** Routes whose errors carry `details` (DESIGN 3.1). */
const DETAILS_FAMILY = /^\/v1\/analytics(\/|$)/;

export function notFound(): RequestHandler {
  return (req, _res, next) => next(errors.routeNotFound(req.method, req.path));
}

/** The one place error bodies are written. Unexpected faults: generic 500, detail to the log only. */
export function errorHandler(log: Logger): ErrorRequestHandler {
  return (err: unknown, req, res, _next) => {
    let apiError: ApiError;
    const storage = err instanceof ApiError ? undefined : storageError(err);
    if (err instanceof ApiError) {
      apiError = err;
    } else if (storage) {
      log.error({ reqId: req.id, err, method: req.method, path: req.path, code: storage.code }, 'storage fault: request refused with 503');
      apiError = storage;
    } else {
      log.error({ reqId: req.id, err, method: req.method, path: req.path }, 'unexpected error');
      apiError = errors.internal();
    }
    if (res.headersSent) {
      res.destroy();
      return;
    }
    for (const [k, v] of Object.entries(apiError.headers)) res.setHeader(k, v);
    const body = DETAILS_FAMILY.test(req.path)
      ? { error: apiError.message, details: apiError.details }
      : { error: apiError.message };
    res.status(apiError.status).json(body);
  };
}
