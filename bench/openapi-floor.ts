import { createHash } from 'node:crypto';
import fs from 'node:fs';
import zlib from 'node:zlib';
import { HTTPSnippet, type HarRequest } from '@readme/httpsnippet';
import hljs from 'highlight.js';
import { marked } from 'marked';
import { HTTP_METHODS } from '../renderer/openapi/refs.js';
import { DEFAULT_LANGUAGES } from '../renderer/openapi/settings.js';
import { targetFor } from '../renderer/openapi/snippets.js';

/**
 * The library floor of an API page, one thread: the bare calls of the libraries every generated
 * page needs, whoever writes the renderer with them (issue 16 names httpsnippet; highlight.js and
 * marked are the page renderer's). For each operation of the spec:
 *
 * - a HAR request (path, query and header parameters with placeholders, bearer auth, the JSON body
 *   from a naive walk of its schema) and httpsnippet's six default languages from it;
 * - highlight.js on the six snippets and on the responses' JSON examples (measured with and
 *   without it, see measureApiFloor);
 * - marked on the operation's description and on every field description its schemas reach;
 * - deflate (level 1, the export's), sha256 and CRC-32 of all the markup made.
 *
 * No spec validation, no field markup, no playground, no layout or sidebar, no retrieval text,
 * no search index, no zip: a lower bound on what an API page can cost. Like the hand-written
 * pages' stage floor (bench/stage-floor.ts), dividing it by the thread count gives the best wall
 * time an export could reach here.
 */

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

// The languages a page shows by default, with the httpsnippet targets the renderer uses for them.
const TARGETS = DEFAULT_LANGUAGES.flatMap((l) => targetFor(l) ?? []);

function resolve(doc: Json, node: unknown): unknown {
  if (!isObj(node) || typeof node['$ref'] !== 'string') return node;
  let out: unknown = doc;
  for (const part of node['$ref'].replace(/^#\//, '').split('/')) out = isObj(out) ? out[part] : undefined;
  return out;
}

/** A placeholder example of a schema, descriptions collected on the way (cycles cut at depth 6). */
function example(doc: Json, raw: unknown, descriptions: string[], depth = 0): unknown {
  const s = resolve(doc, raw);
  if (!isObj(s) || depth > 6) return null;
  if (typeof s['description'] === 'string') descriptions.push(s['description']);
  if (s['example'] !== undefined) return s['example'];
  const choice = (s['oneOf'] ?? s['anyOf']) as unknown[] | undefined;
  if (Array.isArray(choice) && choice.length > 0) return example(doc, choice[0], descriptions, depth + 1);
  if (isObj(s['properties'])) {
    const out: Json = {};
    for (const [k, v] of Object.entries(s['properties'])) out[k] = example(doc, v, descriptions, depth + 1);
    return out;
  }
  if (s['type'] === 'array') return [example(doc, s['items'], descriptions, depth + 1)];
  if (Array.isArray(s['enum'])) return s['enum'][0];
  return s['type'] === 'integer' || s['type'] === 'number' ? 123 : s['type'] === 'boolean' ? true : `<${String(s['type'] ?? 'string')}>`;
}

/** The markup of one operation's page content, made with the libraries only (code as text without `highlight`). */
function operationFloor(doc: Json, server: string, route: string, method: string, op: Json, highlight: boolean): string {
  const descriptions: string[] = [];
  const params = (Array.isArray(op['parameters']) ? op['parameters'] : []).map((p) => resolve(doc, p)).filter(isObj);
  const har: HarRequest = {
    method: method.toUpperCase(),
    url: `${server}${route}`,
    httpVersion: 'HTTP/1.1',
    headers: [{ name: 'Authorization', value: 'Bearer <token>' }],
    queryString: [],
    cookies: [],
    headersSize: -1,
    bodySize: -1,
  } as unknown as HarRequest;
  for (const p of params) {
    if (typeof p['description'] === 'string') descriptions.push(p['description']);
    const value = String(example(doc, p['schema'], descriptions));
    if (p['in'] === 'query') har.queryString.push({ name: String(p['name']), value });
    else if (p['in'] === 'header') har.headers.push({ name: String(p['name']), value });
  }
  const body = resolve(doc, op['requestBody']);
  const json = isObj(body) && isObj(body['content']) ? (body['content'] as Json)['application/json'] : undefined;
  if (isObj(json)) {
    har.headers.push({ name: 'Content-Type', value: 'application/json' });
    har.postData = { mimeType: 'application/json', text: JSON.stringify(example(doc, json['schema'], descriptions)) };
  }
  let html = '';
  const snippet = new HTTPSnippet(har);
  for (const { target, client, fence } of TARGETS) {
    const code = snippet.convert(target as never, client) as string | string[] | false;
    const text = Array.isArray(code) ? (code[0] ?? '') : code || '';
    html += highlight ? hljs.highlight(text, { language: fence, ignoreIllegals: true }).value : text;
  }
  for (const response of Object.values(isObj(op['responses']) ? op['responses'] : {})) {
    const r = resolve(doc, response);
    const media = isObj(r) && isObj(r['content']) ? (r['content'] as Json)['application/json'] : undefined;
    if (!isObj(media)) continue;
    const value = media['example'] ?? example(doc, media['schema'], descriptions);
    const code = JSON.stringify(value, null, 2);
    html += highlight ? hljs.highlight(code, { language: 'json' }).value : code;
  }
  if (typeof op['description'] === 'string') html += marked.parse(op['description']) as string;
  for (const d of descriptions) html += marked.parse(d) as string;
  return html;
}

function operations(doc: Json): [route: string, method: string, op: Json][] {
  const out: [string, string, Json][] = [];
  for (const [route, item] of Object.entries(isObj(doc['paths']) ? doc['paths'] : {})) {
    if (!isObj(item)) continue;
    for (const m of HTTP_METHODS) if (isObj(item[m])) out.push([route, m, item[m] as Json]);
  }
  return out;
}

function run(doc: Json, ops: [string, string, Json][], highlight: boolean): void {
  const servers = Array.isArray(doc['servers']) ? doc['servers'] : [];
  const server = isObj(servers[0]) && typeof servers[0]['url'] === 'string' ? servers[0]['url'] : 'https://api.example.com';
  for (const [route, method, op] of ops) {
    const bytes = Buffer.from(operationFloor(doc, server, route, method, op, highlight), 'utf8');
    zlib.deflateRawSync(bytes, { level: 1 });
    createHash('sha256').update(bytes).digest('hex');
    zlib.crc32(bytes);
  }
}

export interface ApiFloor {
  pages: number;
  /** CPU ms a page with highlight.js run on every snippet and example, as its documentation shows. */
  cpuMsPerPage: number;
  /** The same with code left as text: httpsnippet, marked, deflate and hashes only. */
  unhighlightedCpuMsPerPage: number;
}

/**
 * CPU milliseconds a page of the API floor, one thread, after a warm-up on the first 200
 * operations (the render workers have long compiled these libraries); the spec is parsed once.
 * Reported with and without highlight.js: the renderer makes most of its snippets' markup from
 * one highlighted request shape per language (renderer/openapi/snippet-highlight.ts), so the
 * floor with highlighting is not a lower bound for it, the one without is.
 */
export function measureApiFloor(specFile: string): ApiFloor {
  const doc = JSON.parse(fs.readFileSync(specFile, 'utf8')) as Json;
  const ops = operations(doc);
  const time = (highlight: boolean): number => {
    run(doc, ops.slice(0, 200), highlight);
    const c0 = process.cpuUsage();
    run(doc, ops, highlight);
    const used = process.cpuUsage(c0);
    return (used.user + used.system) / 1000 / ops.length;
  };
  return { pages: ops.length, cpuMsPerPage: time(true), unhighlightedCpuMsPerPage: time(false) };
}

// `node --import tsx bench/openapi-floor.ts <openapi.json>` prints measureApiFloor as JSON (the
// renderer benchmark runs it in a child process: its garbage never counts in the export's memory).
if (process.argv[1] && import.meta.filename === process.argv[1]) {
  const [spec] = process.argv.slice(2);
  if (!spec) throw new Error('usage: openapi-floor.ts <openapi.json>');
  process.stdout.write(`${JSON.stringify(measureApiFloor(spec))}\n`);
}
