/** docs.json / mint.json `api` → the settings every generated page uses. */
import type { SiteConfig } from '../types.js';
import type { ApiSettings } from './operation.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Mintlify's default request-example languages (docs: api-playground/overview, `examples.languages`). */
export const DEFAULT_LANGUAGES = ['bash', 'python', 'javascript', 'php', 'go', 'java'];

const strings = (v: unknown): string[] => (typeof v === 'string' ? [v] : Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string' && x.trim() !== '') : []);

export function apiSettings(config: SiteConfig): ApiSettings {
  const api = config.api?.raw ?? {};
  const mdx = isObj(api['mdx']) ? api['mdx'] : {};
  const examples = isObj(api['examples']) ? api['examples'] : {};
  const params = isObj(api['params']) ? api['params'] : {};
  const languages = strings(examples['languages']);
  return {
    servers: [...strings(mdx['server']), ...strings(api['baseUrl'])],
    fullUrl: api['url'] === 'full',
    languages: languages.length > 0 ? languages : DEFAULT_LANGUAGES,
    requiredOnly: examples['defaults'] === 'required',
    autogenerate: examples['autogenerate'] !== false,
    expandAll: params['expanded'] === 'all',
    postKeys: strings(params['post']),
    specInMarkdown: config.markdown?.schema !== false,
  };
}

export type PlaygroundDisplay = 'interactive' | 'simple' | 'none';

/** `api.playground`, `api.examples.prefill` and `api.mdx.auth`: what the "Try it" panel does. */
export interface PlaygroundSettings {
  /** `auth` reads as `simple`: readers of an appliance site do not sign in (a build warning says so). */
  display: PlaygroundDisplay;
  /** `api.playground.display` was `auth`. */
  authMode: boolean;
  /** `api.playground.proxy` (Mintlify's default true): asks for the site listener's proxy; the operator decides. */
  proxy: boolean;
  /** `api.playground.credentials`: browser credentials on direct cross-origin requests. */
  credentials: boolean;
  prefill: boolean;
  /** `api.mdx.auth` (mint.json: `api.auth`) for hand-written API pages: `bearer`, `basic`, `key` (with `name`), `cobo`. */
  mdxAuth?: { method: string; name?: string };
  /** `api.mdx.server` / `api.baseUrl`. */
  servers: string[];
}

/** A frontmatter or config display value: `auth` → `simple`; unknown → undefined. */
export function displayOf(v: unknown): PlaygroundDisplay | undefined {
  if (v === 'interactive' || v === 'simple' || v === 'none') return v;
  if (v === 'auth') return 'simple';
  return undefined;
}

/** mint.json `api.playground.mode`: what docs.json calls `display`. */
const MINT_MODES: Readonly<Record<string, PlaygroundDisplay>> = { show: 'interactive', simple: 'simple', hide: 'none' };

const playgroundMemo = new WeakMap<SiteConfig, PlaygroundSettings>();

export function playgroundSettings(config: SiteConfig): PlaygroundSettings {
  const known = playgroundMemo.get(config);
  if (known) return known;
  const api = config.api?.raw ?? {};
  const pg = isObj(api['playground']) ? api['playground'] : {};
  const examples = isObj(api['examples']) ? api['examples'] : {};
  const mdx = isObj(api['mdx']) ? api['mdx'] : {};
  // docs.json `api.mdx.auth`; mint.json wrote it as `api.auth`.
  const auth = isObj(mdx['auth']) ? mdx['auth'] : isObj(api['auth']) ? api['auth'] : undefined;
  const method = typeof auth?.['method'] === 'string' ? auth['method'].toLowerCase() : undefined;
  const settings: PlaygroundSettings = {
    display: displayOf(pg['display']) ?? MINT_MODES[String(pg['mode'])] ?? 'interactive',
    authMode: pg['display'] === 'auth',
    proxy: pg['proxy'] !== false,
    credentials: pg['credentials'] === true,
    prefill: examples['prefill'] === true,
    ...(method ? { mdxAuth: { method, ...(typeof auth?.['name'] === 'string' ? { name: auth['name'] } : {}) } } : {}),
    servers: [...strings(mdx['server']), ...strings(api['baseUrl'])],
  };
  playgroundMemo.set(config, settings);
  return settings;
}

/** The spec sources an `openapi` value names: a string, a list, or `{source, directory}`. */
export interface OpenApiScope {
  sources: string[];
  directory?: string;
  /** An `asyncapi` scope: AsyncAPI files, one page per channel. */
  async?: boolean;
}

export function readScope(v: unknown): OpenApiScope | undefined {
  if (typeof v === 'string' && v.trim() !== '') return { sources: [v] };
  if (Array.isArray(v)) {
    const sources = v.flatMap((x) => (typeof x === 'string' ? [x] : isObj(x) && typeof x['source'] === 'string' ? [x['source']] : []));
    const dir = v.find((x) => isObj(x) && typeof x['directory'] === 'string') as Obj | undefined;
    return sources.length > 0 ? { sources, ...(dir ? { directory: dir['directory'] as string } : {}) } : undefined;
  }
  if (isObj(v) && typeof v['source'] === 'string') {
    return { sources: [v['source']], ...(typeof v['directory'] === 'string' && v['directory'].trim() !== '' ? { directory: v['directory'] } : {}) };
  }
  return undefined;
}

/** Specs the config names outside the navigation (api.openapi; mint.json `openapi`). */
export function configuredSources(config: SiteConfig): string[] {
  return readScope(config.api?.openapi)?.sources ?? [];
}
