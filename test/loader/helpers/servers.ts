import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createLogger } from '../../../app/logger.js';
import type { LoadBundleOptions } from '../../../app/loader/load-bundle.js';

export const silentLog = createLogger('silent');

export function tempDir(prefix = 'loader-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** loadBundle options with small limits and fast retries. */
export function loadOptions(stateDir: string, bundleUrl: string, extra: Partial<LoadBundleOptions> = {}): LoadBundleOptions {
  return {
    stateDir,
    bundleUrl,
    limits: { maxEntries: 1000, maxUncompressedBytes: 10 * 1024 * 1024 },
    verifyTimeoutMs: 60_000,
    fetch: { connectTimeoutMs: 1000, totalTimeoutMs: 5000, retries: 2, maxBytes: 10 * 1024 * 1024, backoffMs: 10 },
    log: silentLog,
    ...extra,
  };
}

export interface TestServer {
  url: string;
  hits: number;
  close(): Promise<void>;
}

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

function serve(server: http.Server | https.Server, scheme: string, counter: { hits: number }): Promise<TestServer> {
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `${scheme}://127.0.0.1:${port}`,
        get hits() {
          return counter.hits;
        },
        close: () =>
          new Promise<void>((r) => {
            server.close(() => r());
            server.closeAllConnections();
          }),
      });
    });
  });
}

/** An HTTP server on loopback that counts requests. */
export function httpServer(handler: Handler): Promise<TestServer> {
  const counter = { hits: 0 };
  return serve(
    http.createServer((req, res) => {
      counter.hits += 1;
      handler(req, res);
    }),
    'http',
    counter,
  );
}

/** A self-signed certificate for 127.0.0.1, made with openssl for this test run. */
export function selfSignedCert(dir: string): { key: string; cert: string } {
  const key = path.join(dir, 'key.pem');
  const cert = path.join(dir, 'cert.pem');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost'], { stdio: 'ignore' });
  return { key: fs.readFileSync(key, 'utf8'), cert: fs.readFileSync(cert, 'utf8') };
}

export function httpsServer(tls: { key: string; cert: string }, handler: Handler): Promise<TestServer> {
  const counter = { hits: 0 };
  return serve(
    https.createServer(tls, (req, res) => {
      counter.hits += 1;
      handler(req, res);
    }),
    'https',
    counter,
  );
}

/** Serve one buffer as a zip download. */
export const sendBuffer =
  (body: Buffer): Handler =>
  (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/zip', 'content-length': body.length });
    res.end(body);
  };
