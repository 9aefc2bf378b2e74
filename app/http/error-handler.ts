import http from 'node:http';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { ApiError, errors, storageError } from '../errors.js';
import type { Logger } from '../logger.js';

/** Routes whose errors carry `details` (DESIGN 3.1). */
const DETAILS_FAMILY = /^\/v1\/analytics(\/|$)/;
/** The discovery document's error bodies carry `message` (its page 404); `error` stays for every client. */
const MESSAGE_FAMILY = /^\/discovery(\/|$)/;

export function notFound(): RequestHandler {
  return (req, _res, next) => next(errors.routeNotFound(req.method, req.path));
}

/**
 * A client fault raised by Express or a library rather than by a route (they carry an http-errors
 * `status`): a path parameter that is not valid percent-encoding, say. A 4xx in the error shape,
 * as every documented operation answers, not a 500 with an error log line; the message is fixed
 * (the offending input is not echoed).
 */
function clientError(err: unknown): ApiError | undefined {
  if (!err || typeof err !== 'object') return undefined;
  const status = (err as { status?: unknown; statusCode?: unknown }).status ?? (err as { statusCode?: unknown }).statusCode;
  if (typeof status !== 'number' || status < 400 || status > 499) return undefined;
  if (err instanceof URIError || /decode param/i.test((err as Error).message ?? '')) return errors.badRequest('Malformed percent-encoding in the request path');
  return new ApiError(status, 'CLIENT_ERROR', `${http.STATUS_CODES[status] ?? 'Bad request'}`);
}

/** The one place error bodies are written. Unexpected faults: generic 500, detail to the log only. */
export function errorHandler(log: Logger): ErrorRequestHandler {
  return (err: unknown, req, res, _next) => {
    let apiError: ApiError;
    const storage = err instanceof ApiError ? undefined : storageError(err);
    const client = err instanceof ApiError ? undefined : clientError(err);
    if (err instanceof ApiError) {
      apiError = err;
    } else if (client) {
      apiError = client;
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
      : MESSAGE_FAMILY.test(req.path)
        ? { error: apiError.message, message: apiError.message }
        : { error: apiError.message };
    res.status(apiError.status).json(body);
  };
}
