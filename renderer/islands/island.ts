/**
 * A use of a running component in a page becomes an island: a container that names the component
 * (`data-island="snippets/a.jsx#Counter"`) and its props (`data-props`, JSON), holding HTML
 * pre-rendered in the sandbox for first paint, with the caller's children as rendered HTML in a
 * `<template data-slot="children">`. The page loads the runtime and the component's modules; the
 * runtime renders the component there. With component scripts off for the project, only the
 * pre-rendered HTML (or, when that failed, the children) is written and no script is shipped.
 */
import { ComponentCall } from '../page/components/call.js';
import type { Env } from '../page/env.js';
import { escapeHtml } from '../page/html.js';
import type { Literal } from '../page/literal.js';
import { resolveAsset, resolveHref } from '../page/links.js';
import { renderNodes } from '../page/render.js';
import type { ModuleComponent } from '../page/scope.js';
import type { PageState } from '../page/state.js';
import type { ElementNode } from '../page/tree.js';
import { createHash } from 'node:crypto';
import { codePropsModule } from './code-props.js';
import { compileModule, moduleGraph, type CompiledModule } from './compile.js';
import { PageIconTable, propStrings } from './icons.js';
import { islandWords, wordsScript } from './words.js';
import { contentStrings } from '../i18n/content-strings.js';
import { sanitizePrerendered } from './sanitize.js';
import { sandboxFor, sandboxReady, type PrerenderResult } from './sandbox.js';
import { browserRuntime } from './runtime.js';

/** What a page's islands need: scripts in load order, and the module files to write. */
export interface PageIslands {
  scripts: string[];
  files: Record<string, string>;
}

const URL_PROPS = new Set(['href', 'src', 'img', 'image', 'url', 'link', 'to', 'poster']);
const IMAGE_ICON_RE = /\.(?:svg|png|jpe?g|gif|webp)$/i;

/**
 * `unlessPrerendered`: what to write instead when the island cannot be compiled or pre-rendered
 * (an expression island keeps the renderer's own output then, rather than an empty first paint).
 */
export function renderIsland(def: ModuleComponent, el: ElementNode, env: Env, state: PageState, unlessPrerendered?: () => string): string {
  const key = `${def.module.file}#${def.exportName}`;
  const where = { file: def.module.file, line: def.line };
  const modules: CompiledModule[] = [];
  for (const mod of moduleGraph(def.module)) {
    const compiled = compileModule(mod);
    if (!compiled.ok) {
      if (unlessPrerendered) return unlessPrerendered();
      state.warn('component-compile', `<${el.name}> could not be compiled (${compiled.message}); its content is shown without it`, mod.file, compiled.line);
      return fallback(el, env, state);
    }
    modules.push(compiled.module);
  }

  const call = new ComponentCall(el, env, state, false);
  const props: Record<string, Literal> = {};
  const html: Record<string, string> = {};
  const code: Record<string, string> = {};
  for (const attr of el.attrs) {
    const value = call.props[attr.name];
    if (value !== undefined || attr.value.kind !== 'expr') {
      const isUrl = URL_PROPS.has(attr.name) || (attr.name === 'icon' && typeof value === 'string' && IMAGE_ICON_RE.test(value));
      props[attr.name] = typeof value === 'string' && isUrl ? localUrl(attr.name, value, env, state) : value;
      continue;
    }
    const jsx = call.jsxAttr(attr.name);
    if (jsx !== '') html[attr.name] = jsx;
    else code[attr.name] = attr.value.code;
  }
  const codeProps = Object.keys(code).length > 0 ? codePropsFor(code, el, env, state, modules) : undefined;
  if (el.children.length > 0) html['children'] = renderNodes(el.children, env, state, el.multiline ? 'block' : 'inline');

  const icons = (state.islandIcons ??= new PageIconTable(state.ctx.config.iconLibrary));
  const addIcon = (name: string, iconType: string | undefined, theme: boolean): void => {
    const problem = icons.add(name, iconType, theme);
    if (problem) state.warn(problem.code, `<${el.name}>: ${problem.message}`, where.file, where.line);
  };
  for (const m of modules) {
    for (const [name, iconType] of m.icons.names) addIcon(name, iconType, false);
    for (const name of m.icons.theme) addIcon(name, undefined, true);
  }
  if (modules.some((m) => m.icons.dynamic)) {
    for (const s of propStrings(props)) icons.add(s, undefined, false, true);
    for (const m of modules) for (const s of m.icons.strings) icons.add(s, undefined, false, true);
  }

  let first = '';
  if (unlessPrerendered && !sandboxReady()) return unlessPrerendered();
  if (!sandboxReady()) {
    state.warn('component-prerender', `<${el.name}> is not pre-rendered (the sandbox is not loaded in this process); it renders in the browser`, where.file, where.line);
  } else {
    const sandbox = sandboxFor(state.ctx);
    let result: PrerenderResult = sandbox.render(modules, key, props, html, icons.table, codeProps, islandWords(state.words));
    // Names the component computed while rendering: drawn now, and rendered once more with them.
    if (result.ok && result.missing.length > 0) {
      const before = icons.size;
      for (const [name, iconType, theme] of result.missing) addIcon(name, iconType ?? undefined, theme);
      if (icons.size > before) result = sandbox.render(modules, key, props, html, icons.table, codeProps, islandWords(state.words));
    }
    if (result.ok) first = sanitizePrerendered(result.html);
    else if (unlessPrerendered) return unlessPrerendered();
    else state.warn('component-prerender', `<${el.name}> could not be pre-rendered (${result.reason}); readers without JavaScript do not see it`, where.file, where.line);
  }

  const tag = el.block ? 'div' : 'span';
  if (state.ctx.componentScripts === false) {
    if (first === '' && html['children'] !== undefined) first = html['children'];
    return `<${tag} class="c-island" style="display:contents">${first}</${tag}>`;
  }
  if (modules.some((m) => m.readsUser)) state.readsUser = true;
  const runtime = browserRuntime();
  state.islands ??= { scripts: [`/${runtime.bundlePath}`], files: {} };
  for (const m of modules) {
    const url = `/${m.bundlePath}`;
    if (!state.islands.scripts.includes(url)) state.islands.scripts.push(url);
    state.islands.files[m.bundlePath] = m.code;
  }
  // Slots of a pre-rendered island repeat what first paint shows: marked so page text skips them.
  const slots = Object.entries(html)
    .map(([name, value]) => `<template data-slot="${escapeHtml(name)}"${first === '' ? '' : ' data-repeat'}>${value}</template>`)
    .join('');
  const codeAttr = codeProps ? ` data-code-props="${escapeHtml(codeProps)}"` : '';
  return `<${tag} class="c-island" style="display:contents" data-island="${escapeHtml(key)}" data-props="${escapeHtml(JSON.stringify(props))}"${codeAttr}>${first}${slots}</${tag}>`;
}

/**
 * At the end of a page: the page's icon table as a script after the runtime (content-hashed, so
 * pages with the same icons share one file).
 */
export function finishIslands(state: PageState, islands: PageIslands): PageIslands {
  const hash = (code: string): string => createHash('sha256').update(code).digest('hex').slice(0, 10);
  const script = state.islandIcons?.script(hash);
  if (script) {
    islands.files[script.bundlePath] = script.code;
    islands.scripts.splice(1, 0, `/${script.bundlePath}`);
  }
  // A page not in English: its words, right after the runtime (before the modules render).
  const words = wordsScript(state.words, contentStrings('en'), hash);
  if (words) {
    islands.files[words.bundlePath] = words.code;
    islands.scripts.splice(1, 0, `/${words.bundlePath}`);
  }
  return islands;
}

const REPEAT_SLOT_RE = /<template data-slot="[^"]*" data-repeat>|<template\b|<\/template>/g;

/** The page's HTML without the slots that repeat an island's first paint (for its search text). */
export function withoutRepeatedSlots(html: string): string {
  if (!html.includes(' data-repeat>')) return html;
  let out = '';
  let depth = 0;
  let last = 0;
  REPEAT_SLOT_RE.lastIndex = 0;
  for (let m = REPEAT_SLOT_RE.exec(html); m; m = REPEAT_SLOT_RE.exec(html)) {
    const tag = m[0];
    if (depth === 0) {
      if (tag.endsWith(' data-repeat>')) {
        out += html.slice(last, m.index);
        depth = 1;
      }
      continue;
    }
    depth += tag === '</template>' ? -1 : 1;
    if (depth === 0) last = m.index + tag.length;
  }
  return depth === 0 ? out + html.slice(last) : out;
}

/**
 * Props that are code, compiled into a module beside the caller's (code-props.ts); its modules join
 * the island's. Undefined (with a warning) when the caller has no module or its code cannot be read.
 */
function codePropsFor(code: Record<string, string>, el: ElementNode, env: Env, state: PageState, modules: CompiledModule[]): string | undefined {
  const caller = env.scope.module;
  const synthetic = caller ? codePropsModule(caller, code) : undefined;
  if (synthetic) {
    const added: CompiledModule[] = [];
    let ok = true;
    for (const mod of moduleGraph(synthetic)) {
      if (modules.some((m) => m.id === mod.file) || added.some((m) => m.id === mod.file)) continue;
      const compiled = compileModule(mod);
      if (!compiled.ok) {
        ok = false;
        break;
      }
      added.push(compiled.module);
    }
    if (ok) {
      modules.push(...added);
      return synthetic.file;
    }
  }
  for (const name of Object.keys(code)) {
    state.warn('component-prop', `<${el.name} ${name}={…}> is code that could not be compiled with the page; the prop is left out`, env.file, el.line);
  }
  return undefined;
}

/** A local page or file named in a prop: the bundle's URL for it (pages and assets move). */
function localUrl(name: string, value: string, env: Env, state: PageState): string {
  const v = value.trim();
  if (!v.startsWith('/') || v.startsWith('//')) return value;
  return name === 'href' || name === 'link' || name === 'to' || name === 'url' ? resolveHref(v, state, env) : resolveAsset(v, state, env);
}

function fallback(el: ElementNode, env: Env, state: PageState): string {
  const inner = renderNodes(el.children, env, state, el.multiline ? 'block' : 'inline');
  const tag = el.block ? 'div' : 'span';
  return `<${tag} class="c-unknown" data-component="${escapeHtml(el.name)}">${inner}</${tag}>`;
}
