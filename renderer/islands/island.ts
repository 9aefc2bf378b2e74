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
import { compileModule, moduleGraph, type CompiledModule } from './compile.js';
import { sanitizePrerendered } from './sanitize.js';
import { sandboxFor, sandboxReady } from './sandbox.js';
import { browserRuntime } from './runtime.js';

/** What a page's islands need: scripts in load order, and the module files to write. */
export interface PageIslands {
  scripts: string[];
  files: Record<string, string>;
}

const URL_PROPS = new Set(['href', 'src', 'img', 'image', 'url', 'link', 'to', 'poster']);

export function renderIsland(def: ModuleComponent, el: ElementNode, env: Env, state: PageState): string {
  const key = `${def.module.file}#${def.exportName}`;
  const where = { file: def.module.file, line: def.line };
  const modules: CompiledModule[] = [];
  for (const mod of moduleGraph(def.module)) {
    const compiled = compileModule(mod);
    if (!compiled.ok) {
      state.warn('component-compile', `<${el.name}> could not be compiled (${compiled.message}); its content is shown without it`, mod.file, compiled.line);
      return fallback(el, env, state);
    }
    modules.push(compiled.module);
  }

  const call = new ComponentCall(el, env, state);
  const props: Record<string, Literal> = {};
  const html: Record<string, string> = {};
  for (const attr of el.attrs) {
    const value = call.props[attr.name];
    if (value !== undefined || attr.value.kind !== 'expr') {
      props[attr.name] = typeof value === 'string' && URL_PROPS.has(attr.name) ? localUrl(attr.name, value, env, state) : value;
      continue;
    }
    const jsx = call.jsxAttr(attr.name);
    if (jsx !== '') html[attr.name] = jsx;
    else state.warn('component-prop', `<${el.name} ${attr.name}={…}> is code, which is not passed on; the prop is left out`, env.file, el.line);
  }
  if (el.children.length > 0) html['children'] = renderNodes(el.children, env, state, el.multiline ? 'block' : 'inline');

  let first = '';
  if (!sandboxReady()) {
    state.warn('component-prerender', `<${el.name}> is not pre-rendered (the sandbox is not loaded in this process); it renders in the browser`, where.file, where.line);
  } else {
    const result = sandboxFor(state.ctx).render(modules, key, props, html);
    if (result.ok) first = sanitizePrerendered(result.html);
    else state.warn('component-prerender', `<${el.name}> could not be pre-rendered (${result.reason}); readers without JavaScript do not see it`, where.file, where.line);
  }

  const tag = el.block ? 'div' : 'span';
  if (state.ctx.componentScripts === false) {
    if (first === '' && html['children'] !== undefined) first = html['children'];
    return `<${tag} class="c-island" style="display:contents">${first}</${tag}>`;
  }
  const runtime = browserRuntime();
  state.islands ??= { scripts: [`/${runtime.bundlePath}`], files: {} };
  for (const m of modules) {
    const url = `/${m.bundlePath}`;
    if (!state.islands.scripts.includes(url)) state.islands.scripts.push(url);
    state.islands.files[m.bundlePath] = m.code;
  }
  const slots = Object.entries(html)
    .map(([name, value]) => `<template data-slot="${escapeHtml(name)}">${value}</template>`)
    .join('');
  return `<${tag} class="c-island" style="display:contents" data-island="${escapeHtml(key)}" data-props="${escapeHtml(JSON.stringify(props))}">${first}${slots}</${tag}>`;
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
