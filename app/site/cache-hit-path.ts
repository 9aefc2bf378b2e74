import type { IncomingMessage, ServerResponse } from 'node:http';
import { agentHeaders, wantsMarkdown } from './agent-discovery.js';
import { sequentialRequestIds } from '../http/sequential-request-id.js';
import { isNotModified, negotiateEncoding } from './conditional.js';
import { lookupPath } from './request-path.js';
import { securityHeaders, variantEtag } from './security-headers.js';
import type { ServedSite, SiteFile } from './served-site.js';

type Encoding = 'br' | 'gzip' | undefined;

/** URL paths remembered per site (query strings are not part of the key). */
const MAX_URLS = 50_000;
/** Distinct Accept-Encoding (and Accept) values remembered (browsers send a handful). */
const MAX_ENCODING_HEADERS = 64;
const MAX_ACCEPT_HEADERS = 64;
/** A mounted directory may change under us: a remembered URL is resolved again after this long. */
const MOUNTED_RECHECK_MS = 1000;
const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** One file's answers, as flat header lists ready for writeHead; the last value is the request id. */
interface FileAnswers {
  ok: Record<'identity' | 'br' | 'gzip', string[] | undefined>;
  notModified: Record<'identity' | 'br' | 'gzip', string[]>;
}

export interface CacheHitPathOptions {
  contentSecurityPolicy: string;
  /** Called once per answered request (the caller aggregates; no log line is written). */
  count: (method: string, status: number) => void;
}

/**
 * The lean path of the site listener: a GET or HEAD of a file of the active site whose bytes
 * (and, when asked for, compressed bytes) are already in memory is answered here, before Express,
 * from headers built once per file. It applies exactly the serving rules of site-handler.ts
 * (same path normalisation, validators, 304s, encodings, headers); anything else (ranges,
 * misses, 404/400/405/503, files not in memory, a compressed variant still being computed)
 * returns false and takes the full path with its access log line. The caller passes the site the
 * request's host chose (app/site/feature.ts), so the choice is made once per request.
 */
export function createCacheHitPath(opts: CacheHitPathOptions): (req: IncomingMessage, res: ServerResponse, site: ServedSite | undefined) => boolean {
  const security = Object.entries(securityHeaders(opts.contentSecurityPolicy)).flatMap(([k, v]) => [k, String(v)]);
  const urls = new WeakMap<ServedSite, Map<string, { file: SiteFile; at: number }>>();
  const answers = new WeakMap<SiteFile, FileAnswers>();
  const encodings = new Map<string, Encoding>();
  const markdownWanted = new Map<string, boolean>();
  const nextId = sequentialRequestIds();

  // A browser sends the same Accept on every request: parsed once (it is lower-cased and split).
  const prefersMarkdown = (accept: string | string[] | undefined): boolean => {
    if (typeof accept !== 'string') return false;
    let m = markdownWanted.get(accept);
    if (m === undefined) {
      m = wantsMarkdown(accept);
      if (markdownWanted.size >= MAX_ACCEPT_HEADERS) markdownWanted.clear();
      markdownWanted.set(accept, m);
    }
    return m;
  };

  const encodingFor = (acceptEncoding: string): Encoding => {
    let e = encodings.get(acceptEncoding);
    if (e === undefined && !encodings.has(acceptEncoding)) {
      e = negotiateEncoding(acceptEncoding);
      if (encodings.size >= MAX_ENCODING_HEADERS) encodings.clear();
      encodings.set(acceptEncoding, e);
    }
    return e;
  };

  const answersFor = (site: ServedSite, file: SiteFile): FileAnswers => {
    let a = answers.get(file);
    if (a) return a;
    const agent = Object.entries(agentHeaders(site, file)).flatMap(([k, v]) => [k, String(v)]);
    const base = (etag: string) => [
      ...security,
      'content-type', file.type,
      'cache-control', file.cacheControl,
      'last-modified', file.lastModified,
      'accept-ranges', 'bytes',
      ...agent,
      'etag', etag,
    ];
    const ok = (enc: Encoding, body: Buffer | undefined) =>
      body ? [...base(enc ? variantEtag(file.etag, enc) : file.etag), ...(enc ? ['content-encoding', enc] : []), 'content-length', String(body.length), 'x-request-id', ''] : undefined;
    const notModified = (enc: Encoding) => [...base(enc ? variantEtag(file.etag, enc) : file.etag), 'x-request-id', ''];
    a = {
      ok: { identity: ok(undefined, file.body), br: ok('br', file.brBody), gzip: ok('gzip', file.gzipBody) },
      notModified: { identity: notModified(undefined), br: notModified('br'), gzip: notModified('gzip') },
    };
    answers.set(file, a);
    return a;
  };

  /**
   * The in-memory file a URL path names, remembering the path → file resolution per site. A
   * bundle's files never change once extracted, so its entries are final; a mounted directory's
   * are resolved again after MOUNTED_RECHECK_MS (ServedSite.lookup then re-checks the file).
   */
  const resolve = (site: ServedSite, key: string): SiteFile | undefined => {
    let known = urls.get(site);
    if (!known) urls.set(site, (known = new Map()));
    const hit = known.get(key);
    if (hit) {
      if (!site.mounted) return hit.file;
      if (Date.now() - hit.at <= MOUNTED_RECHECK_MS) {
        const file = site.lookup(hit.file.rel);
        if (file === hit.file) return file;
      }
      known.delete(key);
    }
    const lookup = lookupPath(key);
    if (!lookup.ok) return undefined;
    let file: SiteFile | undefined;
    for (const c of lookup.candidates) if ((file = site.lookup(c))) break;
    if (!file?.body) return undefined;
    if (known.size >= MAX_URLS) known.clear();
    known.set(key, { file, at: Date.now() });
    return file;
  };

  /**
   * writeHead reads the list before it returns (Node builds the header block from it at once, or
   * copies the values with setHeader when a header was set before), so the cached list itself
   * carries the request id: no copy per request. Nothing else holds a list across requests.
   */
  const writeHead = (res: ServerResponse, status: number, list: string[], id: string) => {
    list[list.length - 1] = id;
    res.writeHead(status, list);
  };

  return (req, res, site) => {
    const method = req.method;
    if (method !== 'GET' && method !== 'HEAD') return false;
    const headers = req.headers;
    if (headers.range !== undefined) return false;
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const key = q === -1 ? url : url.slice(0, q);
    // `/_/…` belongs to the features' endpoints (or is a 404 there).
    if (key === '/_' || key.startsWith('/_/')) return false;
    // A page asked for as Markdown: the full path picks the page's `.md` (agent-discovery.ts).
    if (prefersMarkdown(headers.accept)) return false;
    // A site with reader access (issue 40) is answered per reader: always the full path.
    if (!site || site.access) return false;
    const file = resolve(site, key);
    if (!file) return false;

    const ae = file.compressible ? headers['accept-encoding'] : undefined;
    const enc = ae ? encodingFor(ae) : undefined;
    const variant = enc ?? 'identity';
    let a = answersFor(site, file);
    const incoming = headers['x-request-id'];
    const id = typeof incoming === 'string' && SAFE_REQUEST_ID.test(incoming) ? incoming : nextId();

    if ((headers['if-none-match'] !== undefined || headers['if-modified-since'] !== undefined) && isNotModified(headers, file.etag, file.mtimeMs)) {
      writeHead(res, 304, a.notModified[variant], id);
      res.end();
      opts.count(method, 304);
      return true;
    }
    const body = enc === 'br' ? file.brBody : enc === 'gzip' ? file.gzipBody : file.body;
    // Compressed bytes not computed yet: the full path computes them (off the main thread).
    if (!body) return false;
    let template = a.ok[variant];
    if (!template) {
      // The variant was computed after this file's answers were built.
      answers.delete(file);
      a = answersFor(site, file);
      template = a.ok[variant]!;
    }
    writeHead(res, 200, template, id);
    if (method === 'HEAD') res.end();
    else res.end(body);
    opts.count(method, 200);
    return true;
  };
}
