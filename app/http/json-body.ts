import express, { type RequestHandler } from 'express';
import { errors } from '../errors.js';
import { bodyFault } from './body-errors.js';

/**
 * JSON bodies only. A request that carries a body of another type is a 415; a body-less POST
 * (the bundle operation) is fine. Size and syntax errors become catalogue errors.
 */
export function jsonBody(limitBytes: number): RequestHandler {
  const parse = express.json({ limit: limitBytes, type: () => true, strict: false });
  return (req, res, next) => {
    const hasBody = Number(req.get('content-length') ?? 0) > 0 || req.get('transfer-encoding') !== undefined;
    if (!hasBody) return next();
    if (!req.is('application/json') && !req.is('application/*+json')) return next(errors.unsupportedMediaType(req.get('content-type') ?? ''));
    parse(req, res, (err?: unknown) => {
      if (!err) return next();
      const fault = bodyFault(err, req.get('content-encoding'));
      if (!fault) return next(err);
      if (fault.kind === 'too-large') return next(errors.payloadTooLarge(limitBytes));
      if (fault.kind === 'malformed') return next(errors.malformedJson(fault.reason));
      if (fault.kind === 'unsupported-encoding') return next(errors.unsupportedMediaType(req.get('content-type') ?? ''));
      if (fault.kind === 'aborted') return next(errors.badRequest('Request body was aborted'));
      next(errors.undecodableBody(fault.encoding));
    });
  };
}
