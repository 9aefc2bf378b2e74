import express, { Router, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import type { Config } from '../../config/schema.js';
import type { Clock } from '../clock.js';
import { storageError } from '../errors.js';
import { bodyFault } from '../http/body-errors.js';
import { createLogThrottle } from '../http/log-throttle.js';
import type { Logger } from '../logger.js';
import { checkBeacon, type IngestEvent } from './events.js';
import { createClientLimiter } from './client-limiter.js';
import type { SiteProjectResolver } from './project-resolver.js';
import type { WriteBuffer } from './write-buffer.js';
import { AGENT_VIEW_TYPE, checkReaderEvent, READER_EVENT_TYPES, type ReaderEvent } from '../reader-analytics/events.js';
import type { ReaderIngest } from '../reader-analytics/ingest.js';

export const EVENTS_PATH = '/_/events';

/** Hands valid beacons (as sent, with the time received filled in) to a forwarder, with the Host and client address they came with. */
export type BeaconForward = (host: string | undefined, clientIp: string | undefined, beacons: Record<string, unknown>[], userAgent?: string) => void;

/**
 * POST /_/events on the site listener: one beacon or an array of them, as JSON (also sent as
 * text/plain by navigator.sendBeacon). Good events are accepted even when others in the same
 * batch are not: 202 {accepted, rejected: [{index, message}]} once they are stored; 400 only when
 * nothing is usable; 503 STORAGE_FULL (or _READ_ONLY, _BUSY) with Retry-After when they could
 * not be stored.
 */
export function createIngestRouter(deps: {
  config: () => Readonly<Config>;
  clock: Clock;
  resolveProject: SiteProjectResolver;
  buffer: WriteBuffer;
  /** Page views and feedback (issue 20): app/reader-analytics takes them. */
  readers?: ReaderIngest;
  onChecked?: (accepted: number, rejected: number) => void;
  /** A serving replica: the valid beacons go to the publishing appliance instead of the local buffer (app/replica). */
  forward?: BeaconForward;
  /** Whether the request carries a replica key that reaches the project: only then are forwarded agent views taken. */
  fromReplica?: (req: Request, projectId: string) => boolean;
  log: Logger;
  /** A request answered 503 (or 500) because its events could not be stored: the catalogue code. */
  onRefused?: (code: string) => void;
}): Router {
  const router = Router();
  const throttle = createLogThrottle(deps.log);
  const limiter = createClientLimiter(() => deps.config().analytics.ingest.perClientPerMinute, () => deps.clock.now().getTime());
  // One parser per configured size (SIGHUP may change it), not one per request.
  let parser: { limit: number; fn: RequestHandler } | undefined;
  const bodyParser = (limit: number) => {
    if (parser?.limit !== limit) parser = { limit, fn: express.text({ type: () => true, limit }) };
    return parser.fn;
  };
  const fail = (res: Response, status: number, error: string, extra: Record<string, unknown> = {}) => res.status(status).json({ error, ...extra });

  router.post(EVENTS_PATH, (req, res, next) => {
    const r = limiter.hit(req.ip ?? 'unknown');
    res.setHeader('RateLimit-Limit', String(r.limit));
    res.setHeader('RateLimit-Remaining', String(r.remaining));
    res.setHeader('RateLimit-Reset', String(r.resetSeconds));
    res.setHeader('Cache-Control', 'no-store');
    if (!r.allowed) {
      res.setHeader('Retry-After', String(r.resetSeconds));
      return fail(res, 429, `Too many event requests from this address; retry in ${r.resetSeconds} s`);
    }
    const type = (req.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    if (type && type !== 'application/json' && type !== 'text/plain') return fail(res, 415, `Content-Type must be application/json or text/plain (got ${type})`);
    const limit = deps.config().analytics.ingest.maxBodyBytes;
    bodyParser(limit)(req, res, (err?: unknown) => {
      const fault = err ? bodyFault(err, req.get('content-encoding')) : undefined;
      if (err && !fault) return next(err);
      if (fault?.kind === 'too-large') return fail(res, 413, `Request body exceeds ${limit} bytes`);
      if (fault?.kind === 'aborted') return fail(res, 400, 'Request body was aborted');
      if (fault?.kind === 'unsupported-encoding') return fail(res, 415, 'Unsupported body encoding');
      if (fault?.kind === 'undecodable') return fail(res, 400, `Request body could not be decoded as its Content-Encoding (${fault.encoding}) says`);
      if (fault) return fail(res, 400, 'Request body could not be read');
      // Called back by body-parser, outside the router's try: a fault must still reach next().
      try {
        handle(req, res, next);
      } catch (e) {
        next(e);
      }
    });
  });

  function handle(req: Request, res: Response, next: NextFunction) {
    const text = typeof req.body === 'string' ? req.body : '';
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch (err) {
      return fail(res, 400, `Body is not JSON: ${(err as Error).message}`);
    }
    const projectId = deps.resolveProject(req.get('host'));
    if (!projectId) return fail(res, 404, 'No project is served at this address');
    const items = Array.isArray(body) ? body : [body];
    const maxBatch = deps.config().analytics.ingest.maxBatch;
    if (items.length === 0) return fail(res, 400, 'Body is an empty array; send one event or a non-empty array');
    if (items.length > maxBatch) return fail(res, 413, `At most ${maxBatch} events per request (got ${items.length})`);
    const nowMs = deps.clock.now().getTime();
    const good: IngestEvent[] = [];
    // Page views and feedback (issue 20) share the endpoint; app/reader-analytics takes them.
    const readerEvents: ReaderEvent[] = [];
    const goodRaw: Record<string, unknown>[] = [];
    const readerRaw: Record<string, unknown>[] = [];
    const rejected: { index: number; message: string }[] = [];
    // Counted apart: a bad page view or feedback is not a rejected search event (its own metric).
    let readerRejected = 0;
    // A replica key is checked only for a batch holding an agent view (a key lookup per beacon would cost more than the beacon).
    let replica: boolean | undefined;
    const fromReplica = () => (replica ??= deps.fromReplica?.(req, projectId) ?? false);
    items.forEach((item, index) => {
      const type = (item as { type?: unknown } | null)?.type;
      if ((deps.readers || deps.forward) && typeof type === 'string' && READER_EVENT_TYPES.has(type)) {
        const c = checkReaderEvent(item, type === AGENT_VIEW_TYPE && fromReplica());
        if (c.ok) {
          readerEvents.push(c.event);
          if (deps.forward) readerRaw.push(item as Record<string, unknown>);
        } else {
          rejected.push({ index, message: c.message });
          readerRejected++;
        }
        return;
      }
      const c = checkBeacon(item, projectId, nowMs);
      if (c.ok) {
        good.push(c.event);
        if (deps.forward) goodRaw.push({ ...(item as Record<string, unknown>), timestamp: new Date(c.event.atMs).toISOString() });
      } else rejected.push({ index, message: c.message });
    });
    deps.onChecked?.(good.length, rejected.length - readerRejected);
    if (readerRejected) deps.readers?.countRejected(readerRejected);
    if (good.length + readerEvents.length === 0) return fail(res, 400, rejected.length === 1 ? `Invalid event: ${rejected[0]!.message}` : 'No valid event in the batch', { rejected });
    if (deps.forward) {
      // A serving replica keeps nothing: both kinds go to the publisher, with the reader's user agent for its daily visitor hash.
      // Reader events only while this replica and the site's bundle collect them (the publisher checks its own switches again).
      const collecting = readerEvents.length > 0 && (deps.readers?.collects(req.get('host')) ?? true);
      if (readerEvents.length && !collecting) deps.readers?.countIgnored(readerEvents.length);
      deps.forward(req.get('host'), req.ip, collecting ? [...goodRaw, ...readerRaw] : goodRaw, req.get('user-agent') ?? '');
      return res.status(202).json({ accepted: good.length + readerEvents.length, rejected, ...(readerEvents.length ? { collecting } : {}) });
    }
    // Answered once what was accepted is stored (the group commits of app/analytics/write-buffer.ts
    // and app/reader-analytics/ingest.ts): a 202 never stands for events a failed write lost.
    const written: Promise<void>[] = [];
    if (good.length) written.push(deps.buffer.push(good));
    // Tells the page's script whether to show the feedback control (collection may be off).
    let collecting: boolean | undefined;
    if (readerEvents.length) {
      written.push(deps.readers!.accept(projectId, readerEvents, { ip: req.ip ?? 'unknown', userAgent: req.get('user-agent') ?? '', host: req.get('host') }, nowMs).stored);
      collecting = deps.readers!.collects(req.get('host'));
    }
    Promise.all(written).then(
      () => res.status(202).json({ accepted: good.length + readerEvents.length, rejected, ...(collecting !== undefined ? { collecting } : {}) }),
      (err: unknown) => refuse(res, err, next),
    );
  }

  /**
   * A write that failed: a storage fault (full disk, read-only state directory, busy database)
   * is the catalogue's 503 with Retry-After, counted; nothing of the request was kept, and the
   * same request sent again counts as the first time would have. Anything else is a 500.
   */
  function refuse(res: Response, err: unknown, next: NextFunction) {
    const storage = storageError(err);
    deps.onRefused?.(storage?.code ?? 'INTERNAL');
    if (!storage) return next(err);
    throttle.error(storage.code, { code: storage.code, err: (err as Error).message }, 'beacon refused with 503: the events could not be stored');
    res.status(storage.status).set(storage.headers).json({ error: storage.message });
  }

  return router;
}
