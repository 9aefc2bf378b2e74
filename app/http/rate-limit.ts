import type { RequestHandler, Request, Response } from 'express';
import type { RateLimitStore, RateLimitResult } from '../../data/stores/rate-limits.js';
import { errors } from '../errors.js';

export interface RateLimitOptions {
  store: RateLimitStore;
  /** Bucket for this request, e.g. `analytics:org_acme`; undefined = not limited. */
  key: (req: Request) => string | undefined;
  limit: number;
  windowMs: number;
}

/** Set the RateLimit-* headers (IETF draft names, as express-rate-limit emits them). */
export function setRateLimitHeaders(res: Response, r: RateLimitResult): void {
  res.setHeader('RateLimit-Limit', String(r.limit));
  res.setHeader('RateLimit-Remaining', String(r.remaining));
  res.setHeader('RateLimit-Reset', String(r.resetSeconds));
}

/** A persisted sliding-window limit: headers on every response, 429 + Retry-After past it. */
export function rateLimit(opts: RateLimitOptions): RequestHandler {
  return (req, res, next) => {
    const bucket = opts.key(req);
    if (!bucket) return next();
    const r = opts.store.hit(bucket, opts.limit, opts.windowMs);
    setRateLimitHeaders(res, r);
    if (!r.allowed) return next(errors.rateLimited(r.resetSeconds));
    next();
  };
}
