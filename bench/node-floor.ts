/**
 * The raw Node floor of the site bench (bench/site.bench.ts): a bare `http.createServer` that
 * answers every URL with the bytes and headers the appliance sent for it (captured at bench time,
 * one file of JSON), picking the variant by Accept-Encoding as the appliance does for the bench's
 * two request kinds. What Node's http module allows on this machine, with no application code.
 *
 *   node --import tsx bench/node-floor.ts <capture.json> <port>
 */
import fs from 'node:fs';
import http from 'node:http';

type Variant = 'br' | 'gzip' | 'identity';
interface Captured {
  /** URL path → variant → [flat header list, body base64]. */
  urls: Record<string, Partial<Record<Variant, [string[], string]>>>;
}

const [file, portArg] = process.argv.slice(2);
const captured = JSON.parse(fs.readFileSync(file!, 'utf8')) as Captured;
const answers = new Map<string, Partial<Record<Variant, [string[], Buffer]>>>();
for (const [url, variants] of Object.entries(captured.urls)) {
  const byVariant: Partial<Record<Variant, [string[], Buffer]>> = {};
  for (const [v, [headers, body]] of Object.entries(variants) as [Variant, [string[], string]][]) byVariant[v] = [headers, Buffer.from(body, 'base64')];
  answers.set(url, byVariant);
}

const server = http.createServer((req, res) => {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const a = answers.get(q === -1 ? url : url.slice(0, q));
  const ae = req.headers['accept-encoding'];
  let answer = a?.identity;
  if (a && ae) {
    if (ae.includes('br') && a.br) answer = a.br;
    else if (ae.includes('gzip') && a.gzip) answer = a.gzip;
  }
  if (!answer) {
    res.writeHead(404, { 'content-length': 0 });
    return void res.end();
  }
  res.writeHead(200, answer[0]);
  res.end(req.method === 'HEAD' ? undefined : answer[1]);
});
// The appliance's listener settings (app/appliance.ts listen()).
server.headersTimeout = 30_000;
server.requestTimeout = 300_000;
server.listen(Number(portArg), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
