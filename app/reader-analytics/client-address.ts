import { createRequire } from 'node:module';
import type { IncomingMessage } from 'node:http';
import express from 'express';

type ProxyAddr = (req: IncomingMessage, trust: (addr: string, i: number) => boolean) => string;
// Express's own resolver of "trust proxy" (its dependency, untyped): the fast path runs before
// Express, so req.ip is not there, but the address must be the one Express would report.
const proxyaddr = createRequire(import.meta.url)('proxy-addr') as ProxyAddr;

/** The client address of a raw request as Express's `req.ip` gives it under `trustProxy`. */
export function clientAddressOf(trustProxy: boolean | number | string): (req: IncomingMessage) => string {
  const probe = express();
  probe.set('trust proxy', trustProxy);
  const trust = probe.get('trust proxy fn') as (addr: string, i: number) => boolean;
  return (req) => {
    try {
      return proxyaddr(req, trust);
    } catch {
      return req.socket.remoteAddress ?? 'unknown';
    }
  };
}
