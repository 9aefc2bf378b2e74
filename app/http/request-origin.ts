import type { Request } from 'express';
import { errors } from '../errors.js';

/** A DNS name (underscores allowed: container names), an IPv4 address or a bracketed IPv6 address, then an optional port. */
const HOST = /^(?:\[[0-9A-Fa-f:.]{2,45}\]|[A-Za-z0-9_](?:[A-Za-z0-9_.-]{0,252}))(?::([0-9]{1,5}))?$/;

/**
 * `http(s)://host[:port]` as the client reached us, for building absolute URLs when no public
 * URL is configured. The Host header (and X-Forwarded-Proto, when `trust proxy` is on) is client
 * input: anything but a plain host and an http(s) scheme is a 400, never part of a URL we hand
 * out (`Host: evil.example"><x` would otherwise land in a JSON link as is).
 */
export function requestOrigin(req: Request, fallbackHost: string): string {
  const protocol = req.protocol.toLowerCase();
  if (protocol !== 'http' && protocol !== 'https') throw errors.badRequest('Invalid X-Forwarded-Proto: must be http or https');
  const host = req.get('host') ?? fallbackHost;
  const m = HOST.exec(host);
  if (!m || (m[1] !== undefined && Number(m[1]) > 65535)) {
    throw errors.badRequest('Invalid Host header: expected a host name or IP address with an optional port');
  }
  return `${protocol}://${host}`;
}
