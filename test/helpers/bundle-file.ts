import fs from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';

const TYPES: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json' };

/**
 * Answers a request from an exported site's directory as the site listener resolves a path
 * (`x`, `x.html`, `x/index.html`), with the site's Content-Security-Policy, or a bare 404: for
 * browser tests whose own server also answers a few appliance endpoints itself.
 */
export function sendBundleFile(dir: string, csp: string, req: IncomingMessage, res: ServerResponse): void {
  const rel = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname).replace(/^\/+/, '') || 'index.html';
  const file = path.join(dir, rel);
  const found = [file, `${file}.html`, path.join(file, 'index.html')].find((f) => f.startsWith(dir) && fs.existsSync(f) && fs.statSync(f).isFile());
  if (!found) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, { 'content-type': TYPES[path.extname(found)] ?? 'application/octet-stream', 'content-security-policy': csp });
  res.end(fs.readFileSync(found));
}
