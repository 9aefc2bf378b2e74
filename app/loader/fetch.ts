import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import tls from 'node:tls';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { redactUrl } from '../logger.js';
import { FetchError } from './errors.js';

export interface FetchOptions {
  connectTimeoutMs: number;
  totalTimeoutMs: number;
  retries: number;
  maxBytes: number;
  /** First retry delay; doubles per attempt (capped at 30 s), with jitter. */
  backoffMs: number;
  /**
   * Extra trusted CA certificates (PEM), added to Node's roots. Operators normally set
   * NODE_EXTRA_CA_CERTS instead, which Node applies to every TLS connection at process start.
   */
  ca?: string | Buffer | undefined;
  signal?: AbortSignal | undefined;
  onRetry?: (info: { attempt: number; delayMs: number; error: FetchError }) => void;
  /** Each redirect followed, with the raw URLs (the caller redacts them for its log). */
  onRedirect?: (info: { from: string; to: string; status: number }) => void;
}

/**
 * A URL in an error message: these become /readyz's reason, which anyone can read, so the query
 * (where presigned links carry their signature) is left out entirely; logs get the parameter names.
 */
const forMessage = (url: string) => redactUrl(url, { query: 'drop' });

const MAX_REDIRECTS = 5;

/**
 * Download `url` to `dest` with retries: network errors, timeouts, 408/429 and 5xx are retried
 * with exponential backoff; other statuses and the size cap fail at once. The URL in messages
 * has no query (forMessage).
 */
export async function downloadWithRetry(url: string, dest: string, opts: FetchOptions): Promise<{ bytes: number; attempts: number }> {
  for (let attempt = 0; ; attempt++) {
    try {
      const bytes = await downloadOnce(url, dest, opts, 0);
      return { bytes, attempts: attempt + 1 };
    } catch (err) {
      fs.rmSync(dest, { force: true });
      const error = err instanceof FetchError ? err : new FetchError(`${forMessage(url)}: ${(err as Error).message}`, true, { cause: err });
      if (opts.signal?.aborted) throw new FetchError(`${forMessage(url)}: download cancelled`, false);
      if (!error.retryable || attempt >= opts.retries) {
        if (attempt > 0) error.message += ` (after ${attempt + 1} attempts)`;
        throw error;
      }
      const delayMs = Math.min(30_000, opts.backoffMs * 2 ** attempt) * (0.75 + Math.random() * 0.5);
      opts.onRetry?.({ attempt: attempt + 1, delayMs: Math.round(delayMs), error });
      await sleep(delayMs, opts.signal);
    }
  }
}

function downloadOnce(url: string, dest: string, opts: FetchOptions, redirects: number): Promise<number> {
  const shown = forMessage(url);
  return new Promise<number>((resolve, reject) => {
    let settled = false;
    const finish = (err: Error | undefined, bytes = 0) => {
      if (settled) return;
      settled = true;
      clearTimeout(connectTimer);
      clearTimeout(totalTimer);
      opts.signal?.removeEventListener('abort', onAbort);
      if (err) {
        req.destroy();
        reject(err);
      } else resolve(bytes);
    };
    const onAbort = () => finish(new FetchError(`${shown}: download cancelled`, false));
    const parsed = new URL(url);
    const client = parsed.protocol === 'https:' ? https : http;
    const req = client.get(parsed, {
      headers: { 'user-agent': 'docs-appliance-loader', accept: 'application/zip, application/gzip, */*' },
      ...(parsed.protocol === 'https:' && opts.ca ? { ca: [...tls.rootCertificates, opts.ca.toString()] } : {}),
    });
    const connectTimer = setTimeout(
      () => finish(new FetchError(`${shown}: no connection within ${opts.connectTimeoutMs} ms (staticExport.fetch.connectTimeoutMs)`, true)),
      opts.connectTimeoutMs,
    );
    const totalTimer = setTimeout(
      () => finish(new FetchError(`${shown}: download not finished within ${opts.totalTimeoutMs} ms (staticExport.fetch.totalTimeoutMs)`, true)),
      opts.totalTimeoutMs,
    );
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    req.on('socket', (socket) => {
      // A reused or already-connected socket emits no connect event.
      if (!socket.connecting) clearTimeout(connectTimer);
      else socket.once(parsed.protocol === 'https:' ? 'secureConnect' : 'connect', () => clearTimeout(connectTimer));
    });
    req.on('error', (err) => {
      const tlsProblem = /certificate|self.signed|CERT_|SSL/i.test(`${(err as NodeJS.ErrnoException).code ?? ''} ${err.message}`);
      finish(
        new FetchError(
          tlsProblem ? `${shown}: TLS verification failed: ${err.message} (set NODE_EXTRA_CA_CERTS to the customer CA bundle)` : `${shown}: ${err.message}`,
          !tlsProblem,
          { cause: err },
        ),
      );
    });
    req.on('response', (res) => {
      const status = res.statusCode ?? 0;
      if (status >= 300 && status < 400 && res.headers.location) {
        res.resume();
        if (redirects >= MAX_REDIRECTS) return finish(new FetchError(`${shown}: more than ${MAX_REDIRECTS} redirects`, false));
        const next = new URL(res.headers.location, url);
        if (next.protocol !== 'http:' && next.protocol !== 'https:') return finish(new FetchError(`${shown}: redirect to unsupported scheme ${next.protocol}`, false));
        opts.onRedirect?.({ from: url, to: next.toString(), status });
        settled = true;
        clearTimeout(connectTimer);
        clearTimeout(totalTimer);
        opts.signal?.removeEventListener('abort', onAbort);
        downloadOnce(next.toString(), dest, opts, redirects + 1).then(resolve, reject);
        return;
      }
      if (status !== 200) {
        res.resume();
        const retryable = status === 408 || status === 429 || status >= 500;
        const hint = status === 403 ? ' (an expired or invalid signed link: generate a fresh bundleUrl)' : '';
        return finish(new FetchError(`${shown}: HTTP ${status}${hint}`, retryable));
      }
      const declared = Number(res.headers['content-length']);
      if (Number.isFinite(declared) && declared > opts.maxBytes) {
        res.resume();
        return finish(new FetchError(`${shown}: ${declared} bytes, more than ${opts.maxBytes} (staticExport.fetch.maxBytes)`, false));
      }
      let bytes = 0;
      const cap = new Transform({
        transform(chunk: Buffer, _enc, cb) {
          bytes += chunk.length;
          if (bytes > opts.maxBytes) cb(new FetchError(`${shown}: more than ${opts.maxBytes} bytes (staticExport.fetch.maxBytes)`, false));
          else cb(null, chunk);
        },
      });
      const out = fs.createWriteStream(dest);
      pipeline(res, cap, out).then(
        () => {
          if (Number.isFinite(declared) && bytes !== declared) finish(new FetchError(`${shown}: connection closed after ${bytes} of ${declared} bytes`, true));
          else finish(undefined, bytes);
        },
        (err: Error) => {
          const failed = () => finish(err instanceof FetchError ? err : new FetchError(`${shown}: download interrupted: ${err.message}`, true, { cause: err }));
          // The caller removes the partial file at once: an open still pending (the first chunk was
          // already over the cap) would create it again after that, and leave it behind.
          if (out.closed) failed();
          else out.once('close', failed);
        },
      );
    });
  });
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
