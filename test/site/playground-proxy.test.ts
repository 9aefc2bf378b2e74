import http from 'node:http';
import type { AddressInfo } from 'node:net';
import supertest from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { withConnectOrigins } from '../../renderer/csp.js';
import { tempDir } from '../loader/helpers/servers.js';
import { bundleFile, fastLoader, listen, rmDir, siteAppliance, type RawResponse } from './helpers.js';

const PROJECT = 'aaaaaaaaaaaaaaaaaaaaaaaa'; // the sample bundle's project
const SECRET = 'sk_live_never_logged_42';

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A local test API: echoes what it received; /slow never answers in time, /big answers 64 KiB, /redirect points elsewhere. */
async function testApi(): Promise<{ origin: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      if (req.url === '/slow') return void setTimeout(() => res.end('late'), 2000);
      if (req.url === '/big') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('x'.repeat(64 * 1024));
      if (req.url === '/redirect') return void res.writeHead(302, { location: 'http://169.254.169.254/latest' }).end();
      res.writeHead(201, { 'content-type': 'application/json', 'set-cookie': 'upstream=1', 'x-api': 'yes' }).end(JSON.stringify({ ok: true, echo: body }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  cleanup.push(() => new Promise<void>((r) => server.close(() => r())));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

async function served(playground: Record<string, unknown> | undefined, extra: Record<string, unknown> = {}) {
  const dir = tempDir('playground-');
  cleanup.push(() => rmDir(dir));
  const bundle = bundleFile(dir, 'v1');
  const logs: string[] = [];
  const a = siteAppliance(dir, {
    log: { level: 'debug' },
    organizations: [{ id: 'org_a', name: 'A' }],
    projects: [{ id: PROJECT, orgId: 'org_a', name: 'Docs', domain: 'docs.test.internal', sourceDir: dir, ...(playground ? { playground } : {}) }],
    staticExport: { enabled: true, ...fastLoader, bundleUrl: bundle, version: 'v1' },
    ...extra,
  });
  // Capture what the appliance logs, to prove the reader's credentials never reach it.
  const log = a.ctx.log as unknown as Record<string, (...args: unknown[]) => void>;
  for (const level of ['info', 'warn', 'error', 'debug']) {
    const original = log[level]!.bind(a.ctx.log);
    log[level] = (...args: unknown[]) => {
      logs.push(JSON.stringify(args));
      original(...args);
    };
  }
  cleanup.push(() => a.close());
  await a.start();
  const end = Date.now() + 15_000;
  while (!a.site.current()) {
    if (Date.now() > end) throw new Error('site not served');
    await new Promise((r) => setTimeout(r, 20));
  }
  return { app: a.app, logs };
}

describe('the playground on the site listener', () => {
  it('tells the page the operator\'s base URL and origins, and its pages\' CSP connect-src gains exactly those', async () => {
    const api = await testApi();
    const { app } = await served({ baseUrl: `${api.origin}/v2`, allowedOrigins: ['https://api.internal.test'] });
    const cfg = await supertest(app).get('/_/playground/config').expect(200);
    expect(cfg.body).toEqual({ baseUrl: `${api.origin}/v2`, allowedOrigins: ['https://api.internal.test', api.origin], proxy: false });
    const page = await supertest(app).get('/').expect(200);
    const csp = page.headers['content-security-policy'] as string;
    expect(csp).toContain(`connect-src 'self' https://api.internal.test ${api.origin}`);
    // Everything else stays as the operator wrote it.
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("default-src 'self'");
  });

  it('without playground settings: no origin allowed, connect-src stays self, the proxy refuses', async () => {
    const { app } = await served(undefined);
    expect((await supertest(app).get('/_/playground/config').expect(200)).body).toEqual({ baseUrl: '', allowedOrigins: [], proxy: false });
    const page = await supertest(app).get('/').expect(200);
    expect(page.headers['content-security-policy']).toContain("connect-src 'self';");
    const r = await supertest(app).get('/_/playground/proxy').set('x-playground-url', 'http://127.0.0.1:9/x').expect(403);
    expect(r.headers['x-playground-error']).toBe('PLAYGROUND_PROXY_OFF');
  });

  it('forwards to an allowed origin: method, body, headers and the reader\'s cookie pass; the site\'s cookies and set-cookie do not; nothing secret is logged', async () => {
    const api = await testApi();
    const { app, logs } = await served({ allowedOrigins: [api.origin], proxy: true });
    const r = await supertest(app)
      .post('/_/playground/proxy')
      .set('x-playground-url', `${api.origin}/v1/pets?api_key=${SECRET}`)
      .set('authorization', `Bearer ${SECRET}`)
      .set('x-playground-cookie', `sid=${SECRET}`)
      .set('cookie', 'site_session=reader-of-the-docs')
      .set('content-type', 'application/json')
      .send({ name: 'Rex' })
      .expect(201);
    expect(r.body).toEqual({ ok: true, echo: '{"name":"Rex"}' });
    expect(r.headers['x-api']).toBe('yes');
    expect(r.headers['set-cookie']).toBeUndefined();
    expect(r.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    const got = api.seen[0]!;
    expect(got.method).toBe('POST');
    expect(got.url).toBe(`/v1/pets?api_key=${SECRET}`);
    expect(got.headers.authorization).toBe(`Bearer ${SECRET}`);
    expect(got.headers.cookie).toBe(`sid=${SECRET}`);
    expect(got.headers['x-playground-url']).toBeUndefined();
    expect(logs.join('\n')).toContain('playground proxy');
    expect(logs.join('\n')).not.toContain(SECRET);
    expect(logs.join('\n')).not.toContain('/v1/pets');
  });

  it('refuses any other origin with a clear error and sends nothing, whatever the page asks', async () => {
    const api = await testApi();
    const other = await testApi();
    const { app } = await served({ allowedOrigins: [api.origin], proxy: true });
    for (const url of [`${other.origin}/x`, 'http://169.254.169.254/latest/meta-data', `${api.origin.replace('127.0.0.1', 'localhost')}/x`]) {
      const r = await supertest(app).get('/_/playground/proxy').set('x-playground-url', url).expect(403);
      expect(r.headers['x-playground-error']).toBe('ORIGIN_NOT_ALLOWED');
      expect(r.body.error.message).toMatch(/is not an API origin this site's operator allowed/);
    }
    for (const url of ['file:///etc/passwd', 'not a url']) {
      const r = await supertest(app).get('/_/playground/proxy').set('x-playground-url', url).expect(400);
      expect(r.headers['x-playground-error']).toBe('PLAYGROUND_BAD_TARGET');
    }
    expect(other.seen).toHaveLength(0);
    expect(api.seen).toHaveLength(0);
  });

  it('refuses cross-site callers, does not follow redirects, and bounds time, request and response size', async () => {
    const api = await testApi();
    // An allowed origin nothing listens on: a port just closed.
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const dead = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise<void>((r) => closed.close(() => r()));
    const { app } = await served({ allowedOrigins: [api.origin, dead], proxy: true, timeoutMs: 300, maxRequestBytes: 1024, maxResponseBytes: 4096 });
    const cross = await supertest(app).get('/_/playground/proxy').set('x-playground-url', `${api.origin}/x`).set('sec-fetch-site', 'cross-site').expect(403);
    expect(cross.headers['x-playground-error']).toBe('PLAYGROUND_CROSS_SITE');
    const foreign = await supertest(app).get('/_/playground/proxy').set('x-playground-url', `${api.origin}/x`).set('origin', 'https://evil.test').expect(403);
    expect(foreign.headers['x-playground-error']).toBe('PLAYGROUND_CROSS_SITE');
    const redirect = await supertest(app).get('/_/playground/proxy').set('x-playground-url', `${api.origin}/redirect`).redirects(0).expect(200);
    expect(redirect.headers['x-playground-status']).toBe('302');
    expect(redirect.headers.location).toBe('http://169.254.169.254/latest');
    const slow = await supertest(app).get('/_/playground/proxy').set('x-playground-url', `${api.origin}/slow`).expect(504);
    expect(slow.body.error.code).toBe('PLAYGROUND_TIMEOUT');
    const big = await supertest(app).post('/_/playground/proxy').set('x-playground-url', `${api.origin}/x`).send('y'.repeat(2048)).expect(413);
    expect(big.body.error.code).toBe('PAYLOAD_TOO_LARGE');
    const huge = await supertest(app).get('/_/playground/proxy').set('x-playground-url', `${api.origin}/big`).expect(502);
    expect(huge.body.error.code).toBe('PLAYGROUND_RESPONSE_TOO_LARGE');
    const down = await supertest(app).get('/_/playground/proxy').set('x-playground-url', `${dead}/x`).expect(502);
    expect(down.body.error).toEqual({ code: 'PLAYGROUND_UNREACHABLE', message: `${dead} could not be reached from the appliance (ECONNREFUSED)` });
  });
});

/**
 * A POST through the proxy that declares `declared` bytes and sends one (a slow sender): resolves
 * with the answer, whenever it comes. `sent()` resolves once the byte is on its way.
 */
function slowBody(port: number, target: string, client: string, declared = 100_000): { answer: Promise<RawResponse>; sent: Promise<void>; destroy(): void } {
  let onSent!: () => void;
  let request: http.ClientRequest | undefined;
  const sent = new Promise<void>((r) => (onSent = r));
  const answer = new Promise<RawResponse>((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, path: '/_/playground/proxy', method: 'POST', agent: false, headers: { 'content-length': String(declared), 'x-playground-url': target, 'x-forwarded-for': client } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      },
    );
    req.on('error', reject);
    req.write('x', () => onSent());
    request = req;
    cleanup.push(() => void req.destroy());
  });
  return { answer, sent, destroy: () => request?.destroy() };
}

describe('the playground proxy under slow senders (issue 37)', () => {
  it('reads bodies before taking a slot: slow senders hold no slot, get 408 at the deadline, and readers pass', async () => {
    const api = await testApi();
    const { app } = await served({ allowedOrigins: [api.origin], proxy: true, maxConcurrent: 4, maxPerClient: 2, bodyTimeoutMs: 1500 }, { admin: { trustProxy: true } });
    const server = await listen(app);
    cleanup.push(() => server.close());
    // As many slow senders as there are slots, each from its own address.
    const slow = ['10.0.0.1', '10.0.0.2', '10.0.0.3', '10.0.0.4'].map((ip) => slowBody(server.port, `${api.origin}/x`, ip));
    await Promise.all(slow.map((s) => s.sent));
    await new Promise((r) => setTimeout(r, 100));
    const reader = await supertest(app).post('/_/playground/proxy').set('x-playground-url', `${api.origin}/pets`).set('x-forwarded-for', '10.0.0.9').send({ name: 'Rex' });
    expect(reader.status).toBe(201);
    expect(reader.body).toEqual({ ok: true, echo: '{"name":"Rex"}' });
    // At the deadline each slow sender gets a coded 408; nothing of theirs reached the API.
    for (const s of slow) {
      const r = await s.answer;
      expect(r.status).toBe(408);
      expect(r.headers['x-playground-error']).toBe('BODY_TIMEOUT');
      expect(r.headers.connection).toBe('close');
      expect(JSON.parse(r.body.toString())).toEqual({ error: { code: 'BODY_TIMEOUT', message: 'The request body did not arrive within 1500 ms; nothing was sent' } });
    }
    expect(api.seen.map((x) => x.url)).toEqual(['/pets']);
  });

  it('bounds requests per client address (X-Forwarded-For under admin.trustProxy, as for rate limits) and slots per project', async () => {
    const api = await testApi();
    const { app } = await served({ allowedOrigins: [api.origin], proxy: true, maxConcurrent: 3, maxPerClient: 2, bodyTimeoutMs: 5000, timeoutMs: 5000 }, { admin: { trustProxy: true } });
    const server = await listen(app);
    cleanup.push(() => server.close());
    const slow = [slowBody(server.port, `${api.origin}/x`, '10.0.0.1'), slowBody(server.port, `${api.origin}/x`, '10.0.0.1')];
    await Promise.all(slow.map((s) => s.sent));
    await new Promise((r) => setTimeout(r, 100));
    const third = await supertest(app).get('/_/playground/proxy').set('x-playground-url', `${api.origin}/pets`).set('x-forwarded-for', '10.0.0.1').expect(429);
    expect(third.headers['retry-after']).toBe('1');
    expect(third.body.error).toEqual({ code: 'PLAYGROUND_CLIENT_BUSY', message: 'This address already has 2 playground requests in flight for this site; retry when one has finished' });
    // Another address is not held back by the first one's requests.
    await supertest(app).get('/_/playground/proxy').set('x-playground-url', `${api.origin}/pets`).set('x-forwarded-for', '10.0.0.2').expect(201);
    // Slots are still bounded per project: three answers the API holds fill them; a fourth address gets 503.
    const held = ['10.0.0.3', '10.0.0.4', '10.0.0.5'].map((ip) => supertest(app).get('/_/playground/proxy').set('x-playground-url', `${api.origin}/slow`).set('x-forwarded-for', ip).then((r) => r));
    const until = Date.now() + 5000;
    while (api.seen.filter((x) => x.url === '/slow').length < 3 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    const busy = await supertest(app).get('/_/playground/proxy').set('x-playground-url', `${api.origin}/pets`).set('x-forwarded-for', '10.0.0.6').expect(503);
    expect(busy.headers['retry-after']).toBe('1');
    expect(busy.body.error.code).toBe('PLAYGROUND_BUSY');
    expect((await Promise.all(held)).map((r) => r.status)).toEqual([200, 200, 200]);
    // Slots and per-client counts are given back: the first address may send again once its senders are gone.
    for (const s of slow) {
      void s.answer.catch(() => undefined);
      s.destroy();
    }
    await new Promise((r) => setTimeout(r, 100));
    await supertest(app).get('/_/playground/proxy').set('x-playground-url', `${api.origin}/pets`).set('x-forwarded-for', '10.0.0.1').expect(201);
  });
});

describe('connect-src for the playground origins', () => {
  it('appends to connect-src, derives it from default-src, or leaves a policy without either alone', () => {
    expect(withConnectOrigins("default-src 'self'; connect-src 'self'", ['https://a.test'])).toBe("default-src 'self'; connect-src 'self' https://a.test");
    expect(withConnectOrigins("default-src 'self'; img-src data:", ['https://a.test'])).toBe("default-src 'self'; img-src data:; connect-src 'self' https://a.test");
    expect(withConnectOrigins("connect-src 'none'", ['https://a.test'])).toBe('connect-src https://a.test');
    expect(withConnectOrigins("img-src 'self'", ['https://a.test'])).toBe("img-src 'self'");
    expect(withConnectOrigins("default-src 'self'", [])).toBe("default-src 'self'");
  });
});
