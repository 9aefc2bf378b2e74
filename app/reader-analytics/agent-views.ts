import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { SiteProjectResolver } from '../analytics/project-resolver.js';
import { classifyUserAgent } from './classify.js';
import type { BeaconForward } from '../analytics/ingest-router.js';
import { AGENT_VIEW_TYPE, pagePath, READER_LIMITS } from './events.js';
import type { ReaderIngest } from './ingest.js';

// A page is an extensionless path or an .html / .md file (the Markdown versions agents fetch).
const PAGE_RE = /^\/(?:[^?#.]*|[^?#]*\.(?:html|md))$/;
const PAGE_TYPE_RE = /^text\/(?:html|markdown)\b/i;

/** The content type among writeHead's headers: an object, or a flat [name, value, …] list (the cache-hit path's). */
function contentType(headers: OutgoingHttpHeaders | unknown[] | undefined): string | undefined {
  if (!headers) return undefined;
  if (Array.isArray(headers)) {
    for (let i = 0; i + 1 < headers.length; i += 2) if (String(headers[i]).toLowerCase() === 'content-type') return String(headers[i + 1]);
    return undefined;
  }
  for (const k in headers) if (k.toLowerCase() === 'content-type') return String(headers[k]);
  return undefined;
}

/**
 * A site fast path that answers nothing: it watches page requests of AI agents, which run no
 * script and so send no beacon, and counts each page the listener served them (200, HTML or
 * Markdown) as one AI view. Browsers' views come from the page's beacon only, so nothing is
 * counted twice. Other bots are not counted. On a serving replica the view is forwarded to the
 * publishing appliance like a beacon (in memory only; the reader's address never reaches a disk).
 */
export function createAgentViewWatcher(deps: {
  ingest: ReaderIngest;
  resolveProject: SiteProjectResolver;
  now: () => number;
  clientAddress: (req: IncomingMessage) => string;
  /** A serving replica: the view goes to the publishing appliance with the beacons, not into the local database. */
  forward?: BeaconForward | undefined;
}) {
  return (req: IncomingMessage, res: ServerResponse): boolean => {
    if (req.method !== 'GET' || !deps.ingest.enabled()) return false;
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    if (path.length > READER_LIMITS.pathChars || path.startsWith('/_') || !PAGE_RE.test(path)) return false;
    const ua = req.headers['user-agent'];
    if (classifyUserAgent(ua) !== 'ai') return false;
    // Status and type as the handler writes them (headers given to writeHead are not readable later).
    let status = 0;
    let type = '';
    const writeHead = res.writeHead;
    res.writeHead = function (this: ServerResponse, code: number, ...rest: unknown[]) {
      status = code;
      type = contentType(rest.find((r) => r !== null && typeof r === 'object') as OutgoingHttpHeaders | unknown[] | undefined) ?? String(this.getHeader('content-type') ?? '');
      return (writeHead as (...a: unknown[]) => ServerResponse).call(this, code, ...rest);
    } as typeof res.writeHead;
    res.on('finish', () => {
      if (status !== 200 || !PAGE_TYPE_RE.test(type)) return;
      const host = req.headers.host;
      const projectId = deps.resolveProject(host);
      if (!projectId) return;
      const client = { ip: deps.clientAddress(req), userAgent: ua ?? '', host };
      if (!deps.forward) return deps.ingest.acceptAgentView(projectId, pagePath(path), client, deps.now());
      // The replica's own switch and the bundle's; the publisher checks its own again.
      if (deps.ingest.collects(host)) deps.forward(host, client.ip, [{ type: AGENT_VIEW_TYPE, path: pagePath(path) }], client.userAgent);
    });
    return false;
  };
}
