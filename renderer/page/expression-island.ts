/**
 * Code in a page that the renderer cannot read as a constant runs where the repository's
 * components run (docs/component-runtime.md): an expression in the content becomes an island,
 * pre-rendered in the sandbox; an attribute of a built-in component is computed there as text.
 */
import { EXPRESSION_EXPORT, expressionModule } from '../islands/code-props.js';
import { compileModule, moduleGraph, type CompiledModule } from '../islands/compile.js';
import { renderIsland } from '../islands/island.js';
import { sandboxFor, sandboxReady } from '../islands/sandbox.js';
import { islandWords } from '../islands/words.js';
import type { Env } from './env.js';
import { decodeEntities } from './html.js';
import { resolveAsset, resolveHref } from './links.js';
import type { Literal } from './literal.js';
import { emptyScope, withValues } from './scope.js';
import type { PageState } from './state.js';
import type { ElementNode } from './tree.js';

const IDENTIFIER_RE = /[A-Za-z_$][\w$]*/g;
const LINK_KEYS = new Set(['href', 'link', 'to', 'url']);
const ASSET_KEYS = new Set(['src', 'img', 'image', 'poster', 'icon']);

/**
 * Data an expression reads (`export const features = [{ href: "/guides/a" }]`) with its site
 * paths made the bundle's, as a page's own links are: pages and files move in the bundle.
 */
function localUrls(value: Literal, key: string, env: Env, state: PageState): Literal {
  if (typeof value === 'string') {
    const v = value.trim();
    if (!v.startsWith('/') || v.startsWith('//')) return value;
    if (LINK_KEYS.has(key)) return resolveHref(v, state, env);
    if (ASSET_KEYS.has(key) && (key !== 'icon' || /\.(?:svg|png|jpe?g|gif|webp)$/i.test(v))) return resolveAsset(v, state, env);
    return value;
  }
  if (Array.isArray(value)) return value.map((item) => localUrls(item, key, env, state));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, Literal> = {};
    for (const [k, v] of Object.entries(value)) out[k] = localUrls(v, k, env, state);
    return out;
  }
  return value;
}

/** The names the code uses that the page or snippet binds to constants: handed to it as props. */
function givenNames(code: string, env: Env): string[] {
  return [...new Set(code.match(IDENTIFIER_RE) ?? [])].filter((n) => env.scope.values.has(n));
}

export function renderExpressionIsland(code: string, line: number, env: Env, state: PageState, block: boolean, asWritten: () => string): string {
  const given = givenNames(code, env);
  const mod = expressionModule(env.scope.module, env.file, code, given);
  if (!mod) return asWritten();
  const attrs = given.map((n) => ({ name: n, value: { kind: 'expr' as const, code: n } }));
  const el: ElementNode = { kind: 'element', name: `{${code.trim().slice(0, 40)}}`, attrs, children: [], line, block, multiline: false };
  const props = new Map(given.map((n) => [n, localUrls(env.scope.values.get(n) as Literal, '', env, state)]));
  const propEnv: Env = { ...env, scope: withValues(emptyScope(), props as Map<string, Literal>) };
  return renderIsland({ kind: 'module', module: mod, exportName: EXPRESSION_EXPORT, exported: true, line }, el, propEnv, state, asWritten);
}

/** Code that only makes a function, an element or an object: nothing a text attribute can be. */
const NOT_TEXT_RE = /^\s*(?:[<{[]|(?:async\s*)?(?:\([^)]*\)|[A-Za-z_$][\w$]*)\s*=>|function\b)/;
const TAG_RE = /<[^>]*>/;

/**
 * An attribute's code computed in the sandbox as text (`title={strings.generateKey}` where
 * `strings` also holds functions, `title={strings.installSDK("ws")}`), or undefined when it is
 * not text, throws, or names what is not defined.
 */
export function codeAsText(code: string, env: Env, state: PageState): string | undefined {
  if (NOT_TEXT_RE.test(code) || !sandboxReady()) return undefined;
  const given = givenNames(code, env);
  const mod = expressionModule(env.scope.module, env.file, `((v) => (typeof v === 'string' || typeof v === 'number' ? String(v) : null))(${code})`, given);
  if (!mod) return undefined;
  const modules: CompiledModule[] = [];
  for (const m of moduleGraph(mod)) {
    const compiled = compileModule(m);
    if (!compiled.ok) return undefined;
    modules.push(compiled.module);
  }
  const props = Object.fromEntries(given.map((n) => [n, env.scope.values.get(n)]));
  const result = sandboxFor(state.ctx).render(modules, `${mod.file}#${EXPRESSION_EXPORT}`, props, {}, {}, undefined, islandWords(state.words));
  // A value that is not text renders nothing (null); text comes back escaped, never as tags.
  if (!result.ok || result.html === '' || TAG_RE.test(result.html)) return undefined;
  return decodeEntities(result.html);
}
