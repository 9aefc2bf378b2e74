/**
 * The "Try it" playground's part of an API page: a placeholder element carrying what the request
 * looks like (method, path, servers, parameters, body, auth) as JSON in an attribute, for
 * assets/client/playground.js to build the form from. Nothing here sends anything; the reader's
 * browser does, to the spec's servers or to what the appliance's operator configured
 * (docs/api-reference.md, "Playground").
 */
import type { SiteConfig } from '../types.js';
import type { Endpoint } from '../page/openapi.js';
import { escapeHtml } from '../page/html.js';
import { exampleCode, exampleMedia, exampleOf, isFile } from './example.js';
import { paramStyle, valueText } from './param-style.js';
import { sentBySecurity } from './security-params.js';
import { displayOf, playgroundSettings, type PlaygroundDisplay } from './settings.js';
import type { ServerTemplate } from './server-variables.js';
import type { ApiOperation, ApiSchema, JsonValue } from './types.js';

export interface PlaygroundParam {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  type: string;
  enum?: string[];
  /** Filled in (`api.examples.prefill`), else shown as the input's placeholder. */
  value?: string;
  placeholder?: string;
  /**
   * An array or object parameter: the input takes items apart by commas (or JSON), and the
   * client sends them by `style`/`explode` as the request examples show (param-style.ts).
   */
  shape?: 'array' | 'object';
  style?: string;
  explode?: boolean;
}

export interface PlaygroundAuth {
  name: string;
  kind: 'bearer' | 'basic' | 'apiKey' | 'oauth2' | 'other';
  in?: 'header' | 'query' | 'cookie';
  param?: string;
  /** The scheme's `x-default`: the field starts with it (what the reader typed before wins). */
  value?: string;
}

export interface PlaygroundRequest {
  method: string;
  /** A path template (`/pets/{id}`) or, on hand-written pages, possibly a full URL. */
  path: string;
  servers: string[];
  /**
   * By the index of `servers`: the URL template and its variables (null: none), which the form
   * asks for (a list when the variable has an `enum`), starting at what `servers` shows.
   */
  serverTemplates?: (ServerTemplate | null)[];
  params: PlaygroundParam[];
  /** `files`: multipart fields that take a file (a file input each, left out of the JSON). */
  /** `deep`: form fields sent with brackets (`encoding` style `deepObject`: `metadata[key]=…`). */
  body?: { type: string; value?: string; placeholder?: string; files?: string[]; deep?: string[] };
  /** Alternatives: every scheme of one applies together. */
  security: PlaygroundAuth[][];
  /** Hand-written pages: the parameters are the page's own ParamFields (read by the client). */
  fromPage?: boolean;
  proxy: boolean;
  credentials: boolean;
}

const text = valueText;

function paramOf(p: ApiOperation['parameters'][number], prefill: boolean): PlaygroundParam {
  const s = p.schema;
  // `x-default` fills the field only when prefilling; it is not the example a placeholder shows.
  const example = (prefill ? s.xDefault : undefined) ?? p.example ?? exampleOf(s, { direction: 'request', prefill });
  const shape = p.contentType !== undefined ? undefined : Array.isArray(example) ? 'array' : typeof example === 'object' && example !== null ? 'object' : undefined;
  const shown = shape === 'array' && Array.isArray(example) ? example.map(text).join(',') : text(example);
  const values = s.enum ?? s.items?.enum;
  return {
    name: p.name,
    in: p.in,
    required: p.required,
    type: s.type,
    ...(values && values.length > 0 ? { enum: values.map(text) } : {}),
    ...(prefill ? { value: shown } : { placeholder: shown }),
    ...(shape ? { shape, ...paramStyle(p) } : {}),
  };
}

function securityOf(op: ApiOperation): PlaygroundAuth[][] {
  return op.security.map((alt) =>
    alt.schemes.map((s): PlaygroundAuth => {
      const value = s.default !== undefined ? { value: s.default } : {};
      if (s.kind === 'bearer' || s.kind === 'oauth2' || s.kind === 'openIdConnect') return { name: s.name, kind: s.kind === 'bearer' ? 'bearer' : 'oauth2', ...value };
      if (s.kind === 'basic') return { name: s.name, kind: 'basic' };
      if (s.kind === 'apiKey') return { name: s.name, kind: 'apiKey', in: s.in ?? 'header', param: s.param ?? s.name, ...value };
      return { name: s.name, kind: 'other' };
    }),
  );
}

function bodyOf(op: ApiOperation, prefill: boolean): PlaygroundRequest['body'] {
  const media = exampleMedia(op.requestBody?.media);
  if (!media) return undefined;
  let value = media.examples[0]?.value ?? (media.schema ? exampleOf(media.schema as ApiSchema, { direction: 'request', prefill }) : undefined);
  const files = /multipart/.test(media.type) ? (media.schema?.properties ?? []).filter((f) => isFile(f.schema) || isFile(f.schema.items)).map((f) => f.name) : [];
  if (files.length > 0 && value && typeof value === 'object' && !Array.isArray(value)) value = Object.fromEntries(Object.entries(value).filter(([k]) => !files.includes(k)));
  const shown = value === undefined ? '' : exampleCode(value, media.type, 2, media.schema);
  return { type: media.type, ...(prefill ? { value: shown } : { placeholder: shown }), ...(files.length > 0 ? { files } : {}), ...(media.deepFields ? { deep: media.deepFields } : {}) };
}

/** The page's display mode: frontmatter `playground` wins over `api.playground.display`. */
function displayFor(config: SiteConfig, frontmatter: Record<string, unknown>): PlaygroundDisplay {
  return displayOf(frontmatter['playground']) ?? playgroundSettings(config).display;
}

function markup(display: PlaygroundDisplay, request: PlaygroundRequest): string {
  // In an attribute, not a script element: the page's search text is taken from its HTML minus tags.
  const json = JSON.stringify(request).replace(/[\uE000-\uE005]/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`);
  return `<div class="c-playground" data-playground="${display}" data-request="${escapeHtml(json)}"></div>\n`;
}

/** A generated (or `openapi:`-frontmatter) page's playground, or '' when its display is `none`. */
export function operationPlayground(op: ApiOperation, config: SiteConfig, frontmatter: Record<string, unknown>): string {
  const display = displayFor(config, frontmatter);
  // A webhook is called by the API, not by the reader.
  if (display === 'none' || op.method === 'WEBHOOK') return '';
  const settings = playgroundSettings(config);
  return markup(display, {
    method: op.method,
    path: op.path,
    servers: op.servers,
    ...(op.serverTemplates ? { serverTemplates: op.serverTemplates } : {}),
    // The auth inputs ask for what a security scheme sends; the same header asked twice would fight.
    params: op.parameters.filter((p) => !sentBySecurity(p, op.security)).map((p) => paramOf(p, settings.prefill)),
    ...(op.requestBody ? { body: bodyOf(op, settings.prefill) } : {}),
    security: securityOf(op),
    proxy: settings.proxy,
    credentials: settings.credentials,
  });
}

/**
 * A hand-written page's auth inputs: its frontmatter `authMethod` (`bearer`, `basic`, `key`,
 * `cobo`, `none`) overrides `api.mdx.auth.method`; a key's header is `api.mdx.auth.name`.
 * `cobo` (a signing scheme) and `none` have none.
 */
function mdxSecurity(auth: { method: string; name?: string } | undefined, frontmatter: Record<string, unknown>): PlaygroundAuth[][] {
  const own = frontmatter['authMethod'];
  const method = typeof own === 'string' && own.trim() !== '' ? own.trim().toLowerCase() : auth?.method;
  if (method === 'bearer') return [[{ name: 'bearer', kind: 'bearer' }]];
  if (method === 'basic') return [[{ name: 'basic', kind: 'basic' }]];
  if (method === 'key') return [[{ name: auth?.name ?? 'key', kind: 'apiKey', in: 'header', param: auth?.name ?? 'Authorization' }]];
  return [];
}

/** A hand-written API page (`api: "POST /users"` or `"GET https://host/x"`): its ParamFields become the form. */
export function handWrittenPlayground(endpoint: Endpoint, config: SiteConfig, frontmatter: Record<string, unknown>): string {
  const display = displayFor(config, frontmatter);
  if (display === 'none' || endpoint.method === 'WEBHOOK') return '';
  const settings = playgroundSettings(config);
  return markup(display, {
    method: endpoint.method,
    path: endpoint.path,
    servers: /^https?:\/\//i.test(endpoint.path) ? [] : settings.servers,
    params: [],
    security: mdxSecurity(settings.mdxAuth, frontmatter),
    fromPage: true,
    proxy: settings.proxy,
    credentials: settings.credentials,
  });
}
