import type { RequestHandler } from 'express';
import type { Logger } from '../logger.js';
import { redactUrl } from '../logger.js';
import type { Metrics } from '../metrics.js';

/** One log line and one metric sample per request, written when the response finishes. */
export function accessLog(log: Logger, metrics: Metrics, listener: 'admin' | 'site'): RequestHandler {
  return (req, res, next) => {
    const start = process.hrtime.bigint();
    res.on('finish', () => {
      const seconds = Number(process.hrtime.bigint() - start) / 1e9;
      // Route templates, not raw paths, keep the metric's label set small.
      const route = req.route?.path ? `${req.baseUrl}${String(req.route.path)}` : res.statusCode === 404 ? 'unmatched' : req.baseUrl || 'other';
      metrics.httpRequests.inc({ listener, method: req.method, route, status: String(res.statusCode) });
      metrics.httpDuration.observe({ listener, method: req.method, route }, seconds);
      // A 503 is the appliance declining on purpose, with Retry-After (nothing served yet at first
      // start, shutting down, a limit): a warning, not an error that pages someone.
      const level = res.statusCode === 503 ? 'warn' : res.statusCode >= 500 ? 'error' : 'info';
      log[level]({ reqId: req.id, listener, method: req.method, url: redactUrl(req.originalUrl), status: res.statusCode, ms: Math.round(seconds * 1e4) / 10, org: req.auth?.org.id }, 'request');
    });
    next();
  };
}
