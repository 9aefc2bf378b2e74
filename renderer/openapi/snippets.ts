/**
 * Request examples in the languages `api.examples.languages` lists, made by @readme/httpsnippet
 * (offline: it only formats text). Names and aliases as Mintlify's docs list them; a language the
 * library has no generator for is left out (docs/api-reference.md lists them).
 */
import { createRequire } from 'node:module';
import type { HTTPSnippet as Snippet, HarRequest } from '@readme/httpsnippet';
import { exampleCode, exampleMedia, exampleOf, isFile } from './example.js';
import { formEntries, serializedParameter, valueText } from './param-style.js';
import { sentBySecurity } from './security-params.js';
import { highlightFromShape, RequestShapes } from './snippet-highlight.js';
import type { ApiOperation, ApiSchema, JsonValue } from './types.js';

// Loaded with the first request example: sites without API pages never pay its 90–140 ms.
const require = createRequire(import.meta.url);
type HTTPSnippet = Snippet;
let snippetLib: typeof import('@readme/httpsnippet') | undefined;
const newSnippet = (har: HarRequest): HTTPSnippet => new (snippetLib ??= require('@readme/httpsnippet') as typeof import('@readme/httpsnippet')).HTTPSnippet(har);

type HarParam = { name: string; value?: string; fileName?: string; contentType?: string };

interface Target {
  label: string;
  target: string;
  client: string;
  /** The code fence's language (for highlighting). */
  fence: string;
}

const TARGETS: Record<string, Target> = {
  bash: { label: 'cURL', target: 'shell', client: 'curl', fence: 'bash' },
  python: { label: 'Python', target: 'python', client: 'requests', fence: 'python' },
  javascript: { label: 'JavaScript', target: 'javascript', client: 'fetch', fence: 'javascript' },
  node: { label: 'Node.js', target: 'node', client: 'fetch', fence: 'javascript' },
  php: { label: 'PHP', target: 'php', client: 'curl', fence: 'php' },
  go: { label: 'Go', target: 'go', client: 'native', fence: 'go' },
  java: { label: 'Java', target: 'java', client: 'unirest', fence: 'java' },
  ruby: { label: 'Ruby', target: 'ruby', client: 'native', fence: 'ruby' },
  powershell: { label: 'PowerShell', target: 'powershell', client: 'webrequest', fence: 'powershell' },
  swift: { label: 'Swift', target: 'swift', client: 'urlsession', fence: 'swift' },
  csharp: { label: 'C#', target: 'csharp', client: 'restsharp', fence: 'csharp' },
  dotnet: { label: '.NET', target: 'csharp', client: 'httpclient', fence: 'csharp' },
  typescript: { label: 'TypeScript', target: 'javascript', client: 'fetch', fence: 'typescript' },
  c: { label: 'C', target: 'c', client: 'libcurl', fence: 'c' },
  kotlin: { label: 'Kotlin', target: 'kotlin', client: 'okhttp', fence: 'kotlin' },
};

const ALIASES: Record<string, string> = {
  curl: 'bash', sh: 'bash', shell: 'bash', py: 'python', js: 'javascript', nodejs: 'node', 'node.js': 'node', golang: 'go', rb: 'ruby',
  'c#': 'csharp', '.net': 'dotnet', 'dot-net': 'dotnet', ts: 'typescript', kt: 'kotlin',
};

export function targetFor(language: string): Target | undefined {
  const key = language.trim().toLowerCase();
  return TARGETS[ALIASES[key] ?? key];
}

/** Stands in for a missing base URL: httpsnippet needs an absolute URL; removed from the output. */
const NO_SERVER = 'https://no-server.invalid';

const text = valueText;

/**
 * The base URL httpsnippet is given. Public specs often name a relative server (`/api/v3`, or
 * `//host/v2` without a scheme); httpsnippet throws on those and the page had no request example
 * at all. A scheme-relative URL gets `https:`; a path-relative one is put under the stand-in, so
 * the example shows the path as the spec writes it (`/api/v3/pets`).
 */
function baseOf(server: string | undefined): string {
  if (server === undefined || server === '') return NO_SERVER;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(server)) return server.replace(/\/+$/, '');
  if (server.startsWith('//')) return `https:${server}`.replace(/\/+$/, '');
  return `${NO_SERVER}/${server.replace(/^\.?\/+/, '')}`.replace(/\/+$/, '');
}

/**
 * One form field's parts: a file upload for a binary field (`--form file='@example-file'`, not the
 * text `<binary>`), one part per item for an array (not the array's JSON text), else its text.
 */
function formFields(name: string, v: JsonValue, schema: ApiSchema | undefined, multipart: boolean, deep: boolean): HarParam[] {
  if (multipart && (isFile(schema) || (Array.isArray(v) && isFile(schema?.items)))) return [{ name, fileName: 'example-file' }];
  return formEntries(name, v, deep);
}

function harOf(op: ApiOperation): HarRequest {
  const base = baseOf(op.servers[0]);
  const method = op.method === 'WEBHOOK' ? 'POST' : op.method;
  const wanted = (required: boolean): boolean => required || !op.requiredOnly;
  const headers: { name: string; value: string }[] = [];
  const queryString: { name: string; value: string }[] = [];
  const cookies: { name: string; value: string }[] = [];
  // The first alternative that sends something: optional credentials (`{}`) are still shown.
  const auth = op.security.find((alt) => alt.schemes.length > 0);
  for (const s of auth?.schemes ?? []) {
    if (s.kind === 'bearer' || s.kind === 'oauth2' || s.kind === 'openIdConnect') headers.push({ name: 'Authorization', value: 'Bearer <token>' });
    else if (s.kind === 'basic') headers.push({ name: 'Authorization', value: 'Basic <encoded-value>' });
    else if (s.kind === 'apiKey' && s.param) (s.in === 'query' ? queryString : s.in === 'cookie' ? cookies : headers).push({ name: s.param, value: '<api-key>' });
  }
  const sent = auth ? [auth] : [];
  for (const p of op.parameters) {
    if (p.in === 'path' || !wanted(p.required) || sentBySecurity(p, sent)) continue;
    const entries = serializedParameter(p, p.example ?? exampleOf(p.schema, { direction: 'request' }));
    (p.in === 'query' ? queryString : p.in === 'cookie' ? cookies : headers).push(...entries);
  }
  const har: HarRequest = { method, url: `${base}${op.path.startsWith('/') ? '' : '/'}${op.path}`, httpVersion: 'HTTP/1.1', headers, queryString, cookies, headersSize: -1, bodySize: -1, postData: { mimeType: 'application/octet-stream' } };
  const media = exampleMedia(op.requestBody?.media);
  if (media) {
    const body = media.examples[0]?.value ?? (media.schema ? exampleOf(media.schema, { direction: 'request', requiredOnly: op.requiredOnly }) : undefined);
    headers.push({ name: 'Content-Type', value: media.type });
    if (/multipart\/form-data|x-www-form-urlencoded/.test(media.type) && body && typeof body === 'object' && !Array.isArray(body)) {
      const fields = new Map((media.schema?.properties ?? []).map((p) => [p.name, p.schema]));
      const multipart = media.type.includes('multipart');
      const deep = new Set(media.deepFields);
      har.postData = { mimeType: media.type, params: Object.entries(body).flatMap(([name, v]) => formFields(name, v, fields.get(name), multipart, deep.has(name))) };
    } else if (body !== undefined) {
      har.postData = { mimeType: media.type, text: /json|xml/.test(media.type) ? exampleCode(body, media.type, 0, media.schema) : text(body) };
    }
  } else {
    // httpsnippet's types ask for postData, but a request without a body must not have one.
    delete (har as Partial<HarRequest>).postData;
  }
  return har;
}

export interface Sample {
  label: string;
  fence: string;
  code: string;
  /** highlight.js's markup for `code`, when it could be made from the request's shape. */
  html?: string;
}

/** httpsnippet's text for one target, with the stand-in base URL and encoded path braces undone. */
function convertWith(snippet: HTTPSnippet, t: Target): string | undefined {
  const result = snippet.convert(t.target as never, t.client);
  const code = Array.isArray(result) ? result[0] : result;
  if (typeof code !== 'string') return undefined;
  const out = code.replaceAll(NO_SERVER, '').replace(/%7B([\w.-]+)%7D/g, '{$1}').replace(/\n+$/, '');
  // cURL's --data-urlencode encodes only what follows `=`: a bracketed form name (`metadata[key]`,
  // param-style.ts formEntries) reads as Stripe's docs write it, not `metadata%5Bkey%5D`.
  // Quoted, since brackets are glob characters to a shell (zsh refuses `a[b]=1` unquoted).
  if (t.target !== 'shell' || !out.includes('%5B')) return out;
  const brackets = (name: string): string => name.replace(/%5B/g, '[').replace(/%5D/g, ']');
  return out.replace(/--data-urlencode (?:'([^=']+)=|([^=\s']+)=(\S*))/g, (m, quoted: string | undefined, bare: string | undefined, value: string | undefined) =>
    quoted !== undefined ? `--data-urlencode '${brackets(quoted)}=` : bare !== undefined && bare.includes('%5B') ? `--data-urlencode '${brackets(bare)}=${value ?? ''}'` : m,
  );
}

/**
 * httpsnippet's fetch generators (JavaScript, Node.js) wrap every property named `body` in
 * `JSON.stringify(…)`, not only the request's own: a JSON body with a `body` field (GitHub's
 * issues and comments, e-mail APIs, Langfuse's events) was sent with that field encoded twice,
 * `body: JSON.stringify('Some text')`. Such keys are renamed for those generators and named back.
 */
const BODY_KEY = 'body__docs_appliance__';
const BODY_KEY_RE = /"body"(\s*:)/;

function withBodyKeysRenamed(har: HarRequest): HTTPSnippet | undefined {
  const text = har.postData?.text;
  if (typeof text !== 'string' || !/json/i.test(har.postData.mimeType) || !BODY_KEY_RE.test(text)) return undefined;
  return newSnippet({ ...har, postData: { ...har.postData, text: text.replace(new RegExp(BODY_KEY_RE, 'g'), `"${BODY_KEY}"$1`) } });
}

/**
 * The tab titles of x-codeSamples: each sample's `label`, else its language. A label is "useful
 * when providing multiple examples for a single endpoint" (mintlify-docs
 * api-playground/adding-sdk-examples.mdx): samples that share one differ by language, and SDK
 * generators can give every language's sample the operation's name, as livepeer-docs' do: its
 * pages showed tabs all titled `getAsset`. Where titles would repeat, the language
 * tells them apart: alone when every sample has the same label, after the label otherwise; the
 * same label and language twice are numbered.
 */
export function sampleTitles(samples: readonly { lang: string; label?: string }[]): string[] {
  const language = (s: { lang: string }): string => targetFor(s.lang)?.label ?? s.lang;
  const titles = samples.map((s) => s.label ?? language(s));
  const counts = (list: string[]): Map<string, number> => {
    const m = new Map<string, number>();
    for (const t of list) m.set(t, (m.get(t) ?? 0) + 1);
    return m;
  };
  const first = counts(titles);
  if (first.size === titles.length) return titles;
  const oneLabel = new Set(samples.map((s) => s.label)).size === 1;
  const distinct = titles.map((t, i) => ((first.get(t) as number) > 1 ? (oneLabel ? language(samples[i] as { lang: string }) : `${t} (${language(samples[i] as { lang: string })})`) : t));
  const again = counts(distinct);
  const nth = new Map<string, number>();
  return distinct.map((t) => {
    if ((again.get(t) as number) === 1) return t;
    const n = (nth.get(t) ?? 0) + 1;
    nth.set(t, n);
    return n === 1 ? t : `${t} ${n}`;
  });
}

/** The request examples of an operation: its x-codeSamples, or generated ones. */
export function requestSamples(op: ApiOperation): Sample[] {
  if (op.codeSamples) {
    const titles = sampleTitles(op.codeSamples);
    return op.codeSamples.map((s, i) => ({ label: titles[i] as string, fence: targetFor(s.lang)?.fence ?? s.lang.toLowerCase(), code: s.source }));
  }
  // A webhook is a request the API sends, not one a reader makes: its page shows the payload instead.
  if (!op.autogenerate || op.method === 'WEBHOOK') return [];
  let har: HarRequest;
  let snippet: HTTPSnippet;
  try {
    har = harOf(op);
    snippet = newSnippet(har);
  } catch {
    return [];
  }
  const out: Sample[] = [];
  const seen = new Set<string>();
  const shapes = new RequestShapes(har);
  let renamed: HTTPSnippet | undefined | null = null;
  for (const lang of op.languages) {
    const t = targetFor(lang);
    if (!t || seen.has(t.label)) continue;
    seen.add(t.label);
    try {
      if (t.client === 'fetch' && renamed === null) renamed = withBodyKeysRenamed(har);
      const code = t.client === 'fetch' && renamed ? convertWith(renamed, t)?.replaceAll(BODY_KEY, 'body') : convertWith(snippet, t);
      if (code === undefined) continue;
      const html = highlightFromShape(t.fence, shapes, code, (shape) => {
        try {
          return convertWith(newSnippet(shape), t);
        } catch {
          return undefined;
        }
      });
      out.push({ label: t.label, fence: t.fence, code, ...(html === undefined ? {} : { html }) });
    } catch {
      // A generator that cannot express the request (rare): that language is left out.
    }
  }
  return out;
}
