import fs from 'node:fs';
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import { REVALIDATE } from './cache-policy.js';
import { isNotModified, negotiateEncoding, parseRange } from './conditional.js';
import { agentHeaders, markdownOf, wantsMarkdown } from './agent-discovery.js';
import { sendPatternRedirect } from './pattern-redirects.js';
import { lookupPath } from './request-path.js';
import { securityHeaders, variantEtag } from './security-headers.js';
import type { ServedSite, SiteFile } from './served-site.js';
import { unavailablePage } from './unavailable.js';
import { PRIVATE_ANSWER, signInTarget, viewOf, visible, withCookieVary } from './access-gate.js';
import type { ReaderAccess } from '../reader-access/types.js';
import type { ReaderView } from '../../renderer/access/contract.js';

export interface SiteHandlerOptions {
  /** The site this request is answered from (one reference, swapped atomically by the loader or a publish). */
  current: (req: IncomingMessage) => ServedSite | undefined;
  contentSecurityPolicy: string;
  /** An unexpected failure (a file vanished mid-read...): logged by the caller, then a 500. */
  onError: (err: unknown, req: IncomingMessage) => void;
  /** Reader sign-in (issue 40); without it a site with `access` serves only its public files. */
  readerAccess?: ReaderAccess;
}

/**
 * The static file server of the site listener. Plain Node response calls rather than Express
 * helpers: this is the hot path the benchmark measures. GET and HEAD only; anything under `/_/`
 * that reaches it (feature endpoints answer before it) is a 404; a path is served only through
 * lookupPath's normalised candidates, so nothing outside the active site is reachable.
 */
export function createSiteHandler(opts: SiteHandlerOptions) {
  const security = securityHeaders(opts.contentSecurityPolicy);

  const plain = (res: ServerResponse, status: number, text: string, extra: OutgoingHttpHeaders = {}, head = false) => {
    const body = Buffer.from(text);
    res.writeHead(status, { ...security, 'content-type': 'text/plain; charset=utf-8', 'content-length': body.length, 'cache-control': REVALIDATE, ...extra });
    res.end(head ? undefined : body);
  };

  /** The 404 page; on an access site only as the reader's view may see it, and private. */
  const notFound = async (site: ServedSite, res: ServerResponse, head: boolean, view?: ReaderView) => {
    let page = site.lookup('404.html');
    const access = site.access;
    if (access && view && page && !visible(access, page.rel, view)) page = undefined;
    const extra = access ? PRIVATE_ANSWER : {};
    if (!page) return plain(res, 404, 'Not found\n', extra, head);
    if (access && view && site.variants && access.marked.has(page.rel)) page = await site.variants.variant(page, view);
    const body = page.body ?? (await fs.promises.readFile(page.abs));
    res.writeHead(404, { ...security, 'content-type': page.type, 'content-length': body.length, 'cache-control': REVALIDATE, ...extra });
    res.end(head ? undefined : body);
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = req.url ?? '/';
    const head = req.method === 'HEAD';
    if (url === '/_' || url.startsWith('/_/') || url.startsWith('/_?')) return plain(res, 404, 'Not found\n', {}, head);
    if (req.method !== 'GET' && !head) return plain(res, 405, 'Method not allowed\n', { allow: 'GET, HEAD' });
    const site = opts.current(req);
    if (!site) {
      const body = unavailablePage();
      res.writeHead(503, { ...security, 'content-type': 'text/html; charset=utf-8', 'content-length': body.length, 'cache-control': 'no-store', 'retry-after': '30' });
      res.end(head ? undefined : body);
      return;
    }
    // One field check for a site without `access`; with it, the reader's view decides everything below.
    const access = site.access;
    const view = access ? viewOf(opts.readerAccess, req, site.projectId) : undefined;
    const extra = access ? PRIVATE_ANSWER : {};
    const lookup = lookupPath(url);
    if (!lookup.ok) {
      if (lookup.status === 400) return plain(res, 400, 'Bad request\n', extra, head);
      if (lookup.status === 414) return plain(res, 414, 'URI too long\n', extra, head);
      return notFound(site, res, head, view);
    }
    let file: SiteFile | undefined;
    for (const c of lookup.candidates) if ((file = site.lookup(c))) break;
    // Pattern redirects carry no content: a restricted target is enforced when it is asked for.
    if (!file) return sendPatternRedirect(site, url, res, security, head, extra) ? undefined : notFound(site, res, head, view);
    if (wantsMarkdown(req.headers.accept)) file = markdownOf(site, file) ?? file;
    if (access && view) {
      if (!visible(access, file.rel, view)) {
        // A signed-out reader asking for a page is sent to sign in; everything else is not there.
        const signIn = !view.signedIn && file.type.startsWith('text/html') ? signInTarget(opts.readerAccess, site.projectId, url) : undefined;
        if (signIn) return plain(res, 302, `Redirecting to ${signIn}\n`, { ...PRIVATE_ANSWER, location: signIn }, head);
        return notFound(site, res, head, view);
      }
      if (site.variants && access.marked.has(file.rel)) file = await site.variants.variant(file, view);
    }
    await sendFile(site, file, req, res, head);
  }

  // Per handler (a CSP change on reload builds a new handler): headers built once per file.
  const shared = new WeakMap<SiteFile, OutgoingHttpHeaders>();
  const whole = new WeakMap<SiteFile, OutgoingHttpHeaders>();

  /** The headers every 200/206/304 of this file shares. */
  const baseHeaders = (site: ServedSite, file: SiteFile): OutgoingHttpHeaders => {
    let h = shared.get(file);
    if (!h) {
      h = {
        ...security,
        'content-type': file.type,
        'cache-control': file.cacheControl,
        'last-modified': file.lastModified,
        'accept-ranges': 'bytes',
        ...agentHeaders(site, file),
        etag: file.etag,
      };
      // An access site's answer depends on the session cookie (file.cacheControl is already private).
      if (site.access) h.vary = withCookieVary(h.vary as string | undefined);
      shared.set(file, h);
    }
    return h;
  };

  async function sendFile(site: ServedSite, file: SiteFile, req: IncomingMessage, res: ServerResponse, head: boolean): Promise<void> {
    const base = baseHeaders(site, file);
    // Plain GET of the whole file, no validators, no compression asked: the common benchmark
    // and crawler case, answered from precomputed headers.
    if (!req.headers.range && !req.headers['if-none-match'] && !req.headers['if-modified-since'] && !(file.compressible && req.headers['accept-encoding'])) {
      let h = whole.get(file);
      if (!h) whole.set(file, (h = { ...base, 'content-length': file.size }));
      res.writeHead(200, h);
      if (head) return void res.end();
      if (file.body) return void res.end(file.body);
      return stream(fs.createReadStream(file.abs), res);
    }
    const headers: OutgoingHttpHeaders = { ...base };
    const range = parseRange(req.headers, file.size, file.etag, file.lastModified);
    const encoding = range.kind === 'full' && file.compressible ? negotiateEncoding(req.headers['accept-encoding'] as string | undefined) : undefined;
    if (encoding) headers.etag = variantEtag(file.etag, encoding);
    if (isNotModified(req.headers, file.etag, file.mtimeMs)) {
      res.writeHead(304, headers);
      res.end();
      return;
    }
    if (range.kind === 'unsatisfiable') {
      res.writeHead(416, { ...headers, 'content-range': `bytes */${file.size}` });
      res.end();
      return;
    }
    if (range.kind === 'partial') {
      const length = range.end - range.start + 1;
      res.writeHead(206, { ...headers, 'content-range': `bytes ${range.start}-${range.end}/${file.size}`, 'content-length': length });
      if (head) return void res.end();
      if (file.body) return void res.end(file.body.subarray(range.start, range.end + 1));
      return stream(fs.createReadStream(file.abs, { start: range.start, end: range.end }), res);
    }
    if (encoding) {
      const compressed = site.compressed(file, encoding);
      if (compressed) {
        const body = await compressed;
        res.writeHead(200, { ...headers, 'content-encoding': encoding, 'content-length': body.length });
        return void res.end(head ? undefined : body);
      }
      // Too large to keep in memory: compress while streaming (no length known in advance).
      res.writeHead(200, { ...headers, 'content-encoding': encoding });
      if (head) return void res.end();
      const z = encoding === 'br' ? zlib.createBrotliCompress({ params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } }) : zlib.createGzip({ level: 6 });
      return stream(fs.createReadStream(file.abs), res, z);
    }
    res.writeHead(200, { ...headers, 'content-length': file.size });
    if (head) return void res.end();
    if (file.body) return void res.end(file.body);
    return stream(fs.createReadStream(file.abs), res);
  }

  /** A client that goes away mid-file is normal: close quietly. */
  async function stream(source: fs.ReadStream, res: ServerResponse, transform?: zlib.Gzip | zlib.BrotliCompress): Promise<void> {
    try {
      if (transform) await pipeline(source, transform, res);
      else await pipeline(source, res);
    } catch {
      res.destroy();
    }
  }

  return (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void): void => {
    handle(req, res).catch((err: unknown) => {
      opts.onError(err, req);
      if (!res.headersSent) next(err);
      else res.destroy();
    });
  };
}
