import crypto from 'node:crypto';
import type { Secrets } from '../secrets.js';
import type { PageKey } from './report.js';

export const CURSOR_SECRET = 'analytics-cursor';
/** A cursor older than this is refused; raw-event retention keeps what younger ones need. */
export const CURSOR_TTL_MS = 24 * 3600_000;

/** What a cursor pins: the project, the query's parameters, the data and the page boundary. */
export interface CursorState {
  projectId: string;
  fromMs: number | null;
  toMs: number | null;
  limit: number;
  maxId: number;
  after: PageKey;
  issuedMs: number;
}

interface Payload {
  v: 1;
  p: string;
  f: number | null;
  t: number | null;
  l: number;
  m: number;
  h: number;
  q: string;
  i: number;
}

const b64 = (buf: Buffer) => buf.toString('base64url');
const mac = (key: Buffer, kid: string, body: string) => crypto.createHmac('sha256', key).update(`${kid}.${body}`).digest();

export class CursorError extends Error {}

/**
 * `<payload>.<kid>.<signature>`, all base64url: HMAC-SHA256 with the analytics-cursor secret
 * (key id inside, so a rotated key still verifies the cursors it signed). The payload is
 * readable but any change breaks the signature.
 */
export function createCursorCodec(secrets: Secrets) {
  return {
    encode(s: CursorState): string {
      const { kid, key } = secrets.current(CURSOR_SECRET);
      const payload: Payload = { v: 1, p: s.projectId, f: s.fromMs, t: s.toMs, l: s.limit, m: s.maxId, h: s.after.hits, q: s.after.norm, i: s.issuedMs };
      const body = b64(Buffer.from(JSON.stringify(payload)));
      return `${body}.${kid}.${b64(mac(key, kid, body))}`;
    },
    /** The state of a cursor this appliance signed, or a CursorError saying why not. */
    decode(cursor: string, nowMs: number): CursorState {
      const parts = cursor.split('.');
      if (parts.length !== 3 || parts.some((p) => !/^[A-Za-z0-9_-]+$/.test(p))) throw new CursorError('cursor is malformed');
      const [body, kid, sig] = parts as [string, string, string];
      const key = secrets.byKid(CURSOR_SECRET, kid);
      if (!key) throw new CursorError('cursor was not issued by this appliance');
      const expected = mac(key, kid, body);
      const given = Buffer.from(sig, 'base64url');
      if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) throw new CursorError('cursor signature is invalid');
      let p: Payload;
      try {
        p = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Payload;
      } catch {
        throw new CursorError('cursor is malformed');
      }
      const num = (x: unknown) => typeof x === 'number' && Number.isSafeInteger(x);
      if (
        p?.v !== 1 || typeof p.p !== 'string' || !(p.f === null || num(p.f)) || !(p.t === null || num(p.t)) ||
        !num(p.l) || !num(p.m) || !num(p.h) || typeof p.q !== 'string' || !num(p.i)
      ) {
        throw new CursorError('cursor is malformed');
      }
      if (nowMs - p.i > CURSOR_TTL_MS) throw new CursorError('cursor has expired (older than 24 h); start again from the first page');
      return { projectId: p.p, fromMs: p.f, toMs: p.t, limit: p.l, maxId: p.m, after: { hits: p.h, norm: p.q }, issuedMs: p.i };
    },
  };
}

export type CursorCodec = ReturnType<typeof createCursorCodec>;
