/**
 * Mintlify's pattern redirects (`/old/:slug*` → `/new/:slug*`), which a static file cannot
 * stand in for: the exporter lists them in the bundle's manifest.json (`redirects`), and the site
 * listener applies them to a path no file of the site answers, with their status (308, or 307
 * for `permanent: false`). Read once per active site, on its first miss.
 */
import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { compileRedirect, type CompiledRedirect } from '../../renderer/redirect-patterns.js';
import { REVALIDATE } from './cache-policy.js';
import type { ServedSite } from './served-site.js';

/** A manifest is the operator's upload, not only the exporter's output: bounded and checked. */
const MAX_RULES = 10_000;
const MAX_RULE_LENGTH = 2048;
/** Longer paths are not matched: a pattern's cost grows with the path it runs on. */
const MAX_PATH_LENGTH = 2048;
const SAFE_TEXT_RE = /^[^\u0000-\u0020\u007f]+$/;
const OUTSIDE_RE = /^https?:\/\//i;

interface Rule {
  compiled: CompiledRedirect;
  status: 307 | 308;
}

const rulesBySite = new WeakMap<ServedSite, Rule[]>();

function readRules(site: ServedSite): Rule[] {
  // Read with the site's one parse of its manifest (none for a mounted directory: no rules).
  const raw = site.manifestRedirects;
  if (!Array.isArray(raw)) return [];
  const rules: Rule[] = [];
  for (const r of raw.slice(0, MAX_RULES) as unknown[]) {
    if (typeof r !== 'object' || r === null) continue;
    const { source, destination, status } = r as Record<string, unknown>;
    if (typeof source !== 'string' || typeof destination !== 'string' || (status !== 307 && status !== 308)) continue;
    if (source.length > MAX_RULE_LENGTH || destination.length > MAX_RULE_LENGTH || !SAFE_TEXT_RE.test(source) || !SAFE_TEXT_RE.test(destination)) continue;
    // Only a site path or an http(s) URL: never `javascript:` or a protocol-relative `//host`.
    if (!(destination.startsWith('/') && !destination.startsWith('//')) && !OUTSIDE_RE.test(destination)) continue;
    const compiled = compileRedirect(source, destination);
    if (!('error' in compiled)) rules.push({ compiled, status });
  }
  return rules;
}

function encodeCapture(capture: string): string {
  return capture.split('/').map(encodeURIComponent).join('/');
}

/** Where a request for `url` (already known to be a valid site path that no file answers) goes. */
export function patternRedirect(site: ServedSite, url: string): { status: 307 | 308; location: string } | undefined {
  let rules = rulesBySite.get(site);
  if (!rules) rulesBySite.set(site, (rules = readRules(site)));
  if (rules.length === 0) return undefined;
  const q = url.indexOf('?');
  const query = q === -1 ? '' : url.slice(q);
  let sitePath: string;
  try {
    sitePath = decodeURIComponent(q === -1 ? url : url.slice(0, q));
  } catch {
    return undefined;
  }
  sitePath = sitePath.split('/').filter((s) => s !== '').join('/');
  if (sitePath.length > MAX_PATH_LENGTH) return undefined;
  for (const rule of rules) {
    const target = rule.compiled.match(sitePath, encodeCapture);
    if (target === undefined) continue;
    // The visitor's query string goes along, unless the destination sets its own.
    return { status: rule.status, location: query && !/[?#]/.test(target) ? target + query : target };
  }
  return undefined;
}

/** Answers with the redirect and returns true, or returns false when no pattern matches. */
export function sendPatternRedirect(site: ServedSite, url: string, res: ServerResponse, security: OutgoingHttpHeaders, head: boolean, extra: OutgoingHttpHeaders = {}): boolean {
  const hit = patternRedirect(site, url);
  if (!hit) return false;
  const body = Buffer.from(`Redirecting to ${hit.location}\n`);
  res.writeHead(hit.status, { ...security, location: hit.location, 'content-type': 'text/plain; charset=utf-8', 'content-length': body.length, 'cache-control': REVALIDATE, ...extra });
  res.end(head ? undefined : body);
  return true;
}
