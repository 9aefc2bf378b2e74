import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../../config/load.js';
import { createLogger } from '../../app/logger.js';
import { createBeaconForwarder } from '../../app/replica/beacon-forwarder.js';

/** A stand-in for the publisher's beacon endpoint: answers with the statuses given, in turn, then 202. */
async function upstream(statuses: number[]) {
  const received: Array<{ host: string | undefined; forwardedFor: string | undefined; beacons: unknown[] }> = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const status = statuses.shift() ?? 202;
      if (status === 202) received.push({ host: req.headers.host, forwardedFor: req.headers['x-forwarded-for'] as string | undefined, beacons: JSON.parse(body) as unknown[] });
      res.writeHead(status, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received, server };
}

const servers: http.Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await new Promise<void>((resolve) => s.close(() => resolve()));
});

const forwarderTo = (url: string, maxBufferedEvents = 10_000) => {
  const config = parseConfig({ stateDir: '/tmp/unused', replica: { upstreamSiteUrl: url, maxBufferedEvents } });
  return createBeaconForwarder({ config: () => config, log: createLogger('silent'), key: () => 'mint_replica' });
};
const beacon = (i: number) => ({ type: 'search', query: `q${i}`, resultCount: 1, sessionId: 's', timestamp: new Date().toISOString() });

describe('the replica beacon forwarder', () => {
  it('sends keyed batches with the Host and reader address, and keeps them through an outage', async () => {
    const up = await upstream([503, 503]);
    servers.push(up.server);
    const f = forwarderTo(up.url);
    f.forward('docs.a.internal', '10.1.2.3', [beacon(1), beacon(2)]);
    f.forward('docs.b.internal', '10.1.2.4', [beacon(3)]);
    f.forward('docs.a.internal', '10.1.2.3', [beacon(4)]);
    await f.flush(); // the publisher answers 503: kept
    expect(f.stats()).toMatchObject({ buffered: 4, forwarded: 0, dropped: 0 });
    await f.flush(); // 503 again
    await f.flush(); // now taken
    expect(f.stats()).toEqual({ buffered: 0, forwarded: 4, dropped: 0 });
    expect(up.received.map((r) => [r.host, r.forwardedFor, r.beacons.length])).toEqual([
      ['docs.a.internal', '10.1.2.3', 3],
      ['docs.b.internal', '10.1.2.4', 1],
    ]);
    await f.stop();
  });

  it('holds at most maxBufferedEvents while the publisher is unreachable, dropping the oldest', async () => {
    const f = forwarderTo('http://127.0.0.1:9', 100);
    f.forward('docs.a.internal', '10.0.0.1', Array.from({ length: 150 }, (_, i) => beacon(i)));
    expect(f.stats()).toEqual({ buffered: 100, forwarded: 0, dropped: 50 });
    await f.flush();
    expect(f.stats().buffered).toBe(100);
    await f.stop();
  });

  it('drops a batch the publisher refuses (4xx) instead of retrying it for ever', async () => {
    const up = await upstream([400]);
    servers.push(up.server);
    const f = forwarderTo(up.url);
    f.forward('docs.a.internal', '10.0.0.1', [beacon(1)]);
    await f.flush();
    expect(f.stats()).toEqual({ buffered: 0, forwarded: 0, dropped: 1 });
    await f.stop();
  });
});
