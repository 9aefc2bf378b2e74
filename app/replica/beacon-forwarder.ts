import http from 'node:http';
import https from 'node:https';
import type { Config } from '../../config/schema.js';
import { createLogThrottle } from '../http/log-throttle.js';
import type { Logger } from '../logger.js';

interface Batch {
  host: string;
  clientIp: string;
  /** The reader's user agent: the publisher's daily visitor hash and bot classification read it. */
  userAgent: string;
  beacons: Record<string, unknown>[];
  /** When the oldest beacon was received: a beacon older than a day is refused upstream anyway. */
  firstAt: number;
}

/** What the publisher's beacon endpoint takes per request (analytics.ingest.maxBatch default). */
const BATCH = 100;
const FLUSH_MS = 1000;
const MAX_AGE_MS = 23 * 3600_000;

/**
 * Beacons posted to a serving replica, forwarded to the publishing appliance's `POST /_/events`
 * with the Host they were posted to (which names the project there) in batches keyed by host and
 * reader address, at most every second. Held in memory only, never on disk, so a reader's address
 * (sent as X-Forwarded-For, for the publisher's per-client limit) is never written anywhere; at
 * most `replica.maxBufferedEvents` wait, past that the oldest are dropped and counted. A batch the
 * publisher cannot take (down, 5xx, 429) is retried with backoff; one it refuses (4xx) is dropped.
 */
export function createBeaconForwarder(deps: { config: () => Readonly<Config>; log: Logger; key: () => string | undefined }) {
  const log = deps.log.child({ feature: 'replica' });
  const throttle = createLogThrottle(log);
  const queue: Batch[] = [];
  let buffered = 0;
  let dropped = 0;
  let forwarded = 0;
  let timer: NodeJS.Timeout | undefined;
  let sending: Promise<void> | undefined;
  let failures = 0;
  let stopped = false;

  const dropOldest = () => {
    const first = queue[0];
    if (!first) return;
    first.beacons.shift();
    buffered -= 1;
    dropped += 1;
    if (first.beacons.length === 0) queue.shift();
  };

  function post(batch: Batch): Promise<number> {
    const target = new URL('/_/events', deps.config().replica.upstreamSiteUrl!);
    const body = Buffer.from(JSON.stringify(batch.beacons));
    const key = deps.key();
    const client = target.protocol === 'https:' ? https : http;
    return new Promise((resolve, reject) => {
      const req = client.request(
        target,
        {
          method: 'POST',
          headers: { host: batch.host, 'content-type': 'application/json', 'content-length': body.length, 'x-forwarded-for': batch.clientIp, ...(batch.userAgent ? { 'user-agent': batch.userAgent } : {}), ...(key ? { authorization: `Bearer ${key}` } : {}) },
          timeout: 10_000,
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('timeout', () => req.destroy(new Error('timed out')));
      req.on('error', reject);
      req.end(body);
    });
  }

  async function drain(): Promise<void> {
    while (queue.length && !stopped) {
      const batch = queue[0]!;
      if (Date.now() - batch.firstAt > MAX_AGE_MS) {
        buffered -= batch.beacons.length;
        dropped += batch.beacons.length;
        queue.shift();
        continue;
      }
      let status: number;
      try {
        status = await post(batch);
      } catch (err) {
        status = 0;
        throttle.warn('forward-error', { err: (err as Error).message, buffered }, 'replica: cannot forward beacons to the publisher; kept in memory and retried');
      }
      if (status === 0 || status === 429 || status >= 500) {
        failures += 1;
        schedule(Math.min(30_000, 1000 * 2 ** Math.min(failures - 1, 5)));
        return;
      }
      failures = 0;
      if (queue[0] === batch) queue.shift();
      buffered -= batch.beacons.length;
      if (status >= 400) {
        dropped += batch.beacons.length;
        throttle.warn(`forward-refused-${status}`, { status, host: batch.host }, 'replica: the publisher refused forwarded beacons; dropped');
      } else forwarded += batch.beacons.length;
    }
  }

  function schedule(ms: number): void {
    if (timer || stopped) return;
    timer = setTimeout(() => {
      timer = undefined;
      sending ??= drain().finally(() => {
        sending = undefined;
      });
    }, ms);
    timer.unref();
  }

  return {
    forward(host: string | undefined, clientIp: string | undefined, beacons: Record<string, unknown>[], userAgent = ''): void {
      if (!host || beacons.length === 0) return;
      const ip = clientIp ?? '';
      for (const beacon of beacons) {
        // Keyed batches: one per Host, reader address and user agent, filled up to the publisher's batch size.
        let batch = queue.findLast((b) => b.host === host && b.clientIp === ip && b.userAgent === userAgent && b.beacons.length < BATCH);
        if (!batch) queue.push((batch = { host, clientIp: ip, userAgent, beacons: [], firstAt: Date.now() }));
        batch.beacons.push(beacon);
        buffered += 1;
        while (buffered > deps.config().replica.maxBufferedEvents) dropOldest();
      }
      schedule(FLUSH_MS);
    },
    stats: () => ({ buffered, forwarded, dropped }),
    /** Send what waits now (tests, shutdown). */
    async flush(): Promise<void> {
      clearTimeout(timer);
      timer = undefined;
      await sending;
      await drain();
    },
    async stop(): Promise<void> {
      clearTimeout(timer);
      await sending;
      // One last attempt for what waits; what cannot be sent now is lost with the process.
      await Promise.race([drain(), new Promise((resolve) => setTimeout(resolve, 3000).unref())]);
      stopped = true;
    },
  };
}

export type BeaconForwarder = ReturnType<typeof createBeaconForwarder>;
