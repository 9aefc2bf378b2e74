import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestAppliance } from '../helpers/appliance.js';
import { tempDir } from '../loader/helpers/servers.js';
import { listen, raw, rmDir, serveSampleSite, siteAppliance } from './helpers.js';
import { seededRandom } from '../helpers/seeded-random.js';

/** mulberry32: the same paths on every run. */
function prng(seed: number) {
  const next = seededRandom(seed);
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)]!;
  return { next, int, pick };
}

const FILES = ['index.html', 'guides/intro', 'guides/intro.html', 'guides', 'guides/index.html', '404.html', 'manifest.json', 'robots.txt', '_static/site.3f2a9c1b.css', '_assets/images/logo.0123abcd.png', '_search/index.json', '_', '_/events'];
const PIECES = [
  '..', '.', '%2e%2e', '%2E%2e', '%252e%252e', '%25252e', '.%2e', '%00', '\0', 'a%00b', '%2f', '%2F%2F', '%5c', '\\', '..\\..', '%c3%bc', 'ü', '日本語', '%F0%9F%98%80', '😀', '%ff', '%fe%ff', '%', '%zz', '%e2%82', '.hidden', '.well-known', '.git', '~', ';x=1', '%3b', ':', '@', '+', ' ', '%20', '\t', '#frag', '?', '%3f', '*', '$', "'", '"', '<x>', 'CON', 'nul', 'index.html~', 'x'.repeat(255), 'y'.repeat(256), 'z'.repeat(300), '%61'.repeat(120), 'ﬁ', 'İ', '\u200b', '\ud800', 'a\u0301',
];

/** One generated request path: long, deep, encoded, NUL, trailing slashes, files used as directories... */
function generatePath(r: ReturnType<typeof prng>): string {
  const kind = r.int(9);
  let segs: string[];
  switch (kind) {
    case 0: // a known file, maybe used as a directory
      segs = [r.pick(FILES), ...Array.from({ length: r.int(3) }, () => r.pick([...FILES, ...PIECES]))];
      break;
    case 1: // deep
      segs = Array.from({ length: 1 + r.int(1500) }, () => r.pick(['a', 'guides', '..', '.', 'index.html', '%2e%2e']));
      break;
    case 2: // long segments
      segs = Array.from({ length: 1 + r.int(4) }, () => 'a'.repeat(1 + r.int(600)));
      break;
    case 3: // over the path and the header limits
      segs = ['a'.repeat(r.pick([4090, 4097, 9000, 17_000]))];
      break;
    case 4: // double and triple encoding of a known path
      segs = r.pick(FILES).split('/').map((s) => (r.int(2) ? encodeURIComponent(encodeURIComponent(s)) : encodeURIComponent(s).replace(/\./g, '%2e')));
      break;
    default:
      segs = Array.from({ length: 1 + r.int(6) }, () => (r.int(3) ? r.pick(PIECES) : r.pick(FILES)));
  }
  let p = '/' + segs.join(r.int(6) ? '/' : r.pick(['//', '/./', '%2f', '\\']));
  if (r.int(4) === 0) p += '/'.repeat(1 + r.int(3));
  if (r.int(8) === 0) p += r.pick(['?', '?a=1', '?%00', '?x=' + 'q'.repeat(100), '#x']);
  if (r.int(20) === 0) p = r.pick(['*', '', 'http://x/index.html', '//etc/passwd', 'index.html']) + p.slice(1);
  return p;
}

/**
 * One request, its request line written byte for byte (no client-side validation: NUL, spaces and
 * raw UTF-8 reach the server's parser as generated). Resolves with the status code.
 */
function send(port: number, method: string, p: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let head = '';
    socket.setTimeout(10_000, () => reject(new Error(`no answer to ${method} ${JSON.stringify(p.slice(0, 200))}`)));
    socket.on('data', (chunk: Buffer) => {
      head += chunk.toString('latin1');
      const m = /^HTTP\/1\.1 (\d{3})/.exec(head);
      if (m) {
        resolve(Number(m[1]));
        socket.destroy();
      }
    });
    socket.on('error', reject);
    socket.on('close', () => {
      if (!/^HTTP\/1\.1 \d{3}/.test(head)) reject(new Error(`connection closed without a status for ${method} ${JSON.stringify(p.slice(0, 200))}`));
    });
    socket.write(Buffer.concat([Buffer.from(`${method} `), Buffer.from(p, 'utf8'), Buffer.from(' HTTP/1.1\r\nHost: docs.test.internal\r\nConnection: close\r\n\r\n')]));
  });
}

const METHODS = ['GET', 'GET', 'GET', 'GET', 'HEAD', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH'];

/** Every generated request (each sent twice: the second often takes the cache-hit path); statuses counted. */
async function fuzz(port: number, seed: number, count: number): Promise<Map<number, number>> {
  const r = prng(seed);
  const requests = Array.from({ length: count }, () => {
    const p = generatePath(r);
    // A beacon POST is the analytics feature's business (its own tests); paths only here.
    const method = p.startsWith('/_/events') ? 'GET' : r.pick(METHODS);
    return { method, p };
  });
  const statuses = new Map<number, number>();
  let i = 0;
  const worker = async () => {
    while (i < requests.length) {
      const { method, p } = requests[i++]!;
      for (let k = 0; k < 2; k++) {
        const s = await send(port, method, p);
        statuses.set(s, (statuses.get(s) ?? 0) + 1);
      }
    }
  };
  await Promise.all(Array.from({ length: 12 }, worker));
  return statuses;
}

const ALLOWED = new Set([200, 301, 302, 304, 307, 308, 400, 404, 405, 414, 416, 431]);
const unexpected = (statuses: Map<number, number>, allowed: Set<number>) => [...statuses].filter(([s]) => !allowed.has(s));

describe('generated paths against a real site listener', () => {
  let t: TestAppliance;
  let port: number;
  let close: () => Promise<void>;
  const errorLines = () => t.logs.filter((l) => /"level":(50|60)/.test(l)).length;
  let errorsAtStart = 0;

  beforeAll(async () => {
    ({ t, port, close } = await serveSampleSite());
    errorsAtStart = errorLines();
  });
  afterAll(() => close());

  it('answers each of 1,500 paths (twice) with an expected status, logs no error and keeps serving', async () => {
    const statuses = await fuzz(port, 14, 1500);
    expect(unexpected(statuses, ALLOWED)).toEqual([]);
    // The generator reaches every class it is meant to: found, refused, missing, too long.
    for (const s of [200, 400, 404, 405, 414, 431]) expect(statuses.get(s) ?? 0, `status ${s}`).toBeGreaterThan(0);
    expect(errorLines()).toBe(errorsAtStart);
    const home = await raw(port, '/');
    expect(home.status).toBe(200);
    expect(home.body.toString()).toContain('Welcome (v1)');
  }, 60_000);
});

describe('generated paths while no site is loaded', () => {
  it('answers 503 (or a refusal of the request itself) and nothing else', async () => {
    const dir = tempDir('fuzz-empty-');
    const a = siteAppliance(dir, { site: { exampleOnFirstStart: false } });
    await a.start();
    const server = await listen(a.app);
    try {
      const statuses = await fuzz(server.port, 15, 300);
      expect(unexpected(statuses, new Set([503, 400, 404, 405, 414, 431]))).toEqual([]);
      expect(statuses.get(503) ?? 0).toBeGreaterThan(0);
    } finally {
      await server.close();
      await a.close();
      rmDir(dir);
    }
  }, 60_000);
});
