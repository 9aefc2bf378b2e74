/**
 * The API playground's side of the site listener (docs/api-reference.md, "Playground"), under the
 * reserved `/_/` prefix:
 *
 * - `GET /_/playground/config`: the served project's operator settings (base URL, allowed
 *   origins, whether the proxy is on), which replace the spec's servers in the reader's browser.
 * - `/_/playground/proxy` (any method): forwards one request to the URL in `X-Playground-Url`,
 *   only when the operator turned the proxy on for the project and only to an origin the operator
 *   allowed in the appliance's config (never one named by a spec or docs.json), with a timeout,
 *   request/response size limits and a cap on requests in flight. No redirects are followed.
 *   Nothing of the request (path, query, headers, body) is logged or stored: the reader's
 *   credentials pass through to the allowed origin and nowhere else.
 */
import { Router, type Request, type Response } from 'express';
import type { Config, ProjectConfig } from '../../config/schema.js';
import type { AppContext } from '../context.js';
import { ApiError, errors } from '../errors.js';
import type { Feature } from '../feature.js';

type Playground = NonNullable<ProjectConfig['playground']>;

export const PLAYGROUND_CONFIG_PATH = '/_/playground/config';
export const PLAYGROUND_PROXY_PATH = '/_/playground/proxy';

/** The playground settings of the project whose site is served (the only project, for a bundle that names none). */
export function playgroundOf(config: Readonly<Config>, projectId: string | null | undefined): Playground | undefined {
  const project = projectId ? config.projects.find((p) => p.id === projectId) : config.projects.length === 1 ? config.projects[0] : undefined;
  return project?.playground;
}

/** The origins readers' browsers may call: the allowed list and the base URL's origin. */
export function playgroundOrigins(pg: Playground | undefined): string[] {
  if (!pg) return [];
  const origins = [...pg.allowedOrigins];
  if (pg.baseUrl) {
    const o = new URL(pg.baseUrl).origin;
    if (!origins.includes(o)) origins.push(o);
  }
  return origins;
}

// Never forwarded: connection-level headers, the site's own cookies and identity, and our own.
const DROP_REQUEST = /^(host|connection|keep-alive|transfer-encoding|te|trailer|upgrade|proxy-.*|cookie|origin|referer|content-length|accept-encoding|forwarded|x-forwarded-.*|x-real-ip|sec-.*|x-playground-.*|x-request-id)$/i;
const DROP_RESPONSE = /^(connection|keep-alive|transfer-encoding|trailer|upgrade|proxy-.*|set-cookie|set-cookie2|content-encoding|content-length|strict-transport-security|content-security-policy.*|x-frame-options|access-control-.*|alt-svc)$/i;

function hostOf(origin: string): string | undefined {
  try {
    return new URL(origin).host;
  } catch {
    return undefined;
  }
}

function fail(res: Response, err: ApiError): void {
  res
    .status(err.status)
    .set({ ...err.headers, 'cache-control': 'no-store', 'x-content-type-options': 'nosniff', 'x-playground-error': err.code })
    .json({ error: { code: err.code, message: err.message } });
}

/**
 * The request body, refused past `limit` bytes or when it has not all arrived within `deadlineMs`
 * (a client sending one byte every few seconds must not hold anything for long); `aborted` when
 * the client went away.
 */
function readBody(req: Request, limit: number, deadlineMs: number): Promise<Buffer | 'too-large' | 'timeout' | 'aborted'> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limit) return Promise.resolve('too-large');
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (outcome: Buffer | 'too-large' | 'timeout' | 'aborted') => {
      clearTimeout(timer);
      req.off('data', onData).off('end', onEnd).off('error', onGone).off('close', onGone);
      // Whatever else the client sends is not read: the answer closes the connection.
      if (!Buffer.isBuffer(outcome)) req.pause();
      resolve(outcome);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) return done('too-large');
      chunks.push(chunk);
    };
    const onEnd = () => done(Buffer.concat(chunks));
    const onGone = () => done('aborted');
    const timer = setTimeout(() => done('timeout'), deadlineMs);
    req.on('data', onData).once('end', onEnd).once('error', onGone).once('close', onGone);
  });
}

/** The upstream body, refused past `limit` bytes (the connection is cancelled). */
async function readUpstream(body: ReadableStream<Uint8Array> | null, limit: number): Promise<Buffer | 'too-large'> {
  if (!body) return Buffer.alloc(0);
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      return 'too-large';
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

export interface PlaygroundFeatureOptions {
  /** The project of the site a request's Host header is answered from (null: the bundle names none). */
  servedProject: (host: string | undefined) => string | null | undefined;
  /** Tests: the fetch the proxy calls. */
  fetch?: typeof fetch;
}

export function createPlaygroundFeature(ctx: AppContext, opts: PlaygroundFeatureOptions): Feature {
  let config = ctx.config;
  const doFetch = opts.fetch ?? fetch;
  // Slots per project, and requests per (project, client address): counts that drop to zero are removed.
  const inFlight = new Map<string, number>();
  const perClient = new Map<string, number>();
  const count = (map: Map<string, number>, key: string, by: 1 | -1) => {
    const n = (map.get(key) ?? 0) + by;
    if (n <= 0) map.delete(key);
    else map.set(key, n);
  };
  const router = Router();

  router.get(PLAYGROUND_CONFIG_PATH, (req, res) => {
    const pg = playgroundOf(config, opts.servedProject(req.headers.host));
    res.set({ 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' }).json({
      baseUrl: pg?.baseUrl ?? '',
      allowedOrigins: playgroundOrigins(pg),
      proxy: pg?.proxy === true,
    });
  });

  router.all(PLAYGROUND_PROXY_PATH, (req, res, next) => {
    proxy(req, res).catch(next);
  });

  async function proxy(req: Request, res: Response): Promise<void> {
    const projectId = opts.servedProject(req.headers.host);
    const pg = playgroundOf(config, projectId);
    if (!pg?.proxy) return fail(res, errors.playgroundProxyOff());
    // Only the site's own pages may use it: a page elsewhere must not borrow the listener. Browsers
    // say where a request comes from in Sec-Fetch-Site; older ones only in Origin (compared with
    // Host, which a reverse proxy in front must then pass through unchanged).
    const site = req.headers['sec-fetch-site'];
    const origin = req.headers.origin;
    const crossSite = typeof site === 'string' ? site !== 'same-origin' : typeof origin === 'string' && hostOf(origin) !== req.headers.host;
    if (crossSite) {
      return fail(res, errors.playgroundCrossSite());
    }
    const raw = req.headers['x-playground-url'];
    let target: URL;
    try {
      if (typeof raw !== 'string') throw new Error('missing');
      target = new URL(raw);
      if (target.protocol !== 'http:' && target.protocol !== 'https:') throw new Error('scheme');
    } catch {
      return fail(res, errors.playgroundBadTarget());
    }
    if (!playgroundOrigins(pg).includes(target.origin)) return fail(res, errors.playgroundOriginNotAllowed(target.origin));
    const key = projectId ?? '';
    // One client address (req.ip: admin.trustProxy decides, as for the rate limits) holds at most
    // maxPerClient of the project's requests, from the first byte of the body to the answer.
    const client = `${key}\u0000${req.ip ?? 'unknown'}`;
    if ((perClient.get(client) ?? 0) >= pg.maxPerClient) return fail(res, errors.playgroundClientBusy(pg.maxPerClient));
    if ((inFlight.get(key) ?? 0) >= pg.maxConcurrent) return fail(res, errors.playgroundBusy());
    count(perClient, client, +1);
    let slot = false;
    try {
      // The body is read before a slot is taken: a slow sender waits on its own, not in the slots.
      const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
      const body = hasBody ? await readBody(req, pg.maxRequestBytes, pg.bodyTimeoutMs) : undefined;
      if (body === 'aborted') return void res.destroy();
      if (body === 'too-large' || body === 'timeout') {
        res.set('connection', 'close');
        return fail(res, body === 'too-large' ? errors.payloadTooLarge(pg.maxRequestBytes) : errors.bodyTimeout(pg.bodyTimeoutMs));
      }
      if ((inFlight.get(key) ?? 0) >= pg.maxConcurrent) return fail(res, errors.playgroundBusy());
      count(inFlight, key, +1);
      slot = true;
      await forward(req, res, target, pg, body);
    } finally {
      count(perClient, client, -1);
      if (slot) count(inFlight, key, -1);
    }
  }

  /** Forward one request whose body has arrived, holding one of the project's slots. */
  async function forward(req: Request, res: Response, target: URL, pg: Playground, body: Buffer | undefined): Promise<void> {
    const started = performance.now();
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (value === undefined || DROP_REQUEST.test(name)) continue;
      headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
    const cookie = req.headers['x-playground-cookie'];
    if (typeof cookie === 'string' && cookie !== '') headers.set('cookie', cookie);
    let upstream: globalThis.Response;
    try {
      upstream = await doFetch(target, {
        method: req.method,
        headers,
        ...(body && body.length > 0 ? { body: new Uint8Array(body) as Uint8Array<ArrayBuffer> } : {}),
        redirect: 'manual',
        signal: AbortSignal.timeout(pg.timeoutMs),
      });
    } catch (err) {
      const e = err as Error & { cause?: { code?: string } };
      const timedOut = e.name === 'TimeoutError' || e.name === 'AbortError';
      ctx.log.info({ origin: target.origin, method: req.method, failure: timedOut ? 'timeout' : (e.cause?.code ?? 'network') }, 'playground proxy: upstream failed');
      return fail(res, timedOut ? errors.playgroundTimeout(target.origin, pg.timeoutMs) : errors.playgroundUnreachable(target.origin, e.cause?.code));
    }
    const payload = req.method === 'HEAD' ? Buffer.alloc(0) : await readUpstream(upstream.body, pg.maxResponseBytes);
    if (payload === 'too-large') return fail(res, errors.playgroundResponseTooLarge(pg.maxResponseBytes));
    const out: Record<string, string> = {};
    upstream.headers.forEach((value, name) => {
      if (!DROP_RESPONSE.test(name)) out[name] = value;
    });
    ctx.log.info({ origin: target.origin, method: req.method, status: upstream.status, ms: Math.round(performance.now() - started) }, 'playground proxy');
    // A 3xx would make the reader's browser follow it or hide it (opaque redirect): the answer is
    // sent as 200 and its real status travels in X-Playground-Status, for the playground to show.
    const redirect = upstream.status >= 300 && upstream.status < 400;
    res.status(redirect ? 200 : upstream.status).set({
      'x-playground-status': String(upstream.status),
      ...out,
      // The answer is the API's, shown by the playground: it must never act as a page of this site.
      'content-security-policy': "default-src 'none'; sandbox",
      'x-content-type-options': 'nosniff',
      'cache-control': 'no-store',
      'x-playground-upstream-ms': String(Math.round(performance.now() - started)),
    });
    res.end(payload);
  }

  return {
    name: 'playground',
    siteRouter: router,
    reload(next) {
      config = next;
    },
  };
}
