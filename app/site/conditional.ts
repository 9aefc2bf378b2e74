import type { IncomingHttpHeaders } from 'node:http';

/** ETag comparison for If-None-Match: weak comparison, and a compressed variant's tag matches its file. */
export function etagMatches(ifNoneMatch: string, etag: string): boolean {
  if (ifNoneMatch.trim() === '*') return true;
  const base = normalise(etag);
  return ifNoneMatch.split(',').some((t) => normalise(t) === base);
}

function normalise(tag: string): string {
  return tag.trim().replace(/^W\//, '').replace(/-(br|gz)"$/, '"');
}

/** 304 per RFC 9110: If-None-Match wins over If-Modified-Since. */
export function isNotModified(headers: IncomingHttpHeaders, etag: string, mtimeMs: number): boolean {
  const inm = headers['if-none-match'];
  if (inm) return etagMatches(inm, etag);
  const ims = headers['if-modified-since'];
  if (ims) {
    const t = Date.parse(ims);
    // Last-Modified has one-second resolution.
    return Number.isFinite(t) && Math.floor(mtimeMs / 1000) * 1000 <= t;
  }
  return false;
}

export type RangeResult = { kind: 'full' } | { kind: 'partial'; start: number; end: number } | { kind: 'unsatisfiable' };

/**
 * One `bytes=` range (`a-b`, `a-`, `-n`). Several ranges, another unit or a malformed header get
 * the whole file (allowed by RFC 9110); If-Range with another validator gets the whole file too.
 */
export function parseRange(headers: IncomingHttpHeaders, size: number, etag: string, lastModified: string): RangeResult {
  const header = headers.range;
  if (!header) return { kind: 'full' };
  const ifRange = headers['if-range'];
  if (ifRange && ifRange !== etag && ifRange !== lastModified) return { kind: 'full' };
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return { kind: 'full' };
  let start: number;
  let end: number;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0) return { kind: 'unsatisfiable' };
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
    if (m[2] !== '' && Number(m[2]) < start) return { kind: 'full' };
  }
  if (start >= size || size === 0) return { kind: 'unsatisfiable' };
  return { kind: 'partial', start, end };
}

/** `br` over `gzip`, honouring `;q=0`; undefined = identity. */
export function negotiateEncoding(acceptEncoding: string | undefined): 'br' | 'gzip' | undefined {
  if (!acceptEncoding) return undefined;
  let br = false;
  let gzip = false;
  for (const part of acceptEncoding.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    if (q !== undefined && Number(q) === 0) continue;
    if (name === 'br') br = true;
    else if (name === 'gzip' || name === '*') gzip = true;
  }
  return br ? 'br' : gzip ? 'gzip' : undefined;
}
