/**
 * Exported components as browser modules: each page's or snippet's import/export code is
 * compiled with sucrase (JSX → `__h(…)`, imports → `require`, as Mintlify's build uses sucrase)
 * into one `__mintIslands.define(id, deps, factory)` call, content-hashed. Compiling is text to
 * text: nothing of the repository runs here. Cached per process by file and code.
 */
import { createHash } from 'node:crypto';
import { transform } from 'sucrase';
import type { ModuleRef } from '../page/scope.js';
import { moduleIcons, type ModuleIcons } from './icons.js';
import { readsUser } from './reads-user.js';

export interface CompiledModule {
  id: string;
  /** `_static/islands/<name>.<hash>.js`, no leading slash. */
  bundlePath: string;
  code: string;
  /** The icon names the module's code can show (renderer/islands/icons.ts). */
  icons: ModuleIcons;
  /** The code reads Mintlify's `user` (personalization): the page loads reader.js and the runtime waits for it. */
  readsUser?: true;
}

export type CompileResult = { ok: true; module: CompiledModule } | { ok: false; message: string; line?: number };

const COMPILE_CACHE_LIMIT = 2000;
const cache = new Map<string, CompileResult>();

/** Free names a snippet may use without importing them (see client/runtime.js `scope`). */
const SCOPE_NAMES = [
  'React', 'useState', 'useEffect', 'useLayoutEffect', 'useRef', 'useMemo', 'useCallback', 'useReducer', 'useContext', 'useId',
  'useImperativeHandle', 'useDebugValue', 'useTransition', 'useDeferredValue', 'useSyncExternalStore', 'useInsertionEffect',
  'createContext', 'forwardRef', 'memo', 'Fragment',
  'Icon', 'Card', 'CardGroup', 'Columns', 'Column', 'Note', 'Tip', 'Info', 'Warning', 'Check', 'Danger', 'Callout',
  'Accordion', 'AccordionGroup', 'Expandable', 'Steps', 'Step', 'Tabs', 'Tab', 'Frame', 'Badge', 'Tooltip', 'CodeBlock', 'CodeGroup',
  'ParamField', 'ResponseField', 'Update', 'Panel', 'Link', 'Snippet',
];
const PRELUDE = `var __h = __mint.h, __F = __mint.Fragment, __s = __mint.scope;\nvar ${SCOPE_NAMES.map((n) => `${n} = __s.${n}`).join(', ')};\n`;

/** Where each import specifier of the module leads in the browser: another module's id, or a package name. */
function depsOf(mod: ModuleRef): Record<string, string> {
  const out: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [spec, dep] of mod.deps) out[spec] = typeof dep === 'string' ? (dep === 'package' ? spec : '') : dep.file;
  return out;
}

export function compileModule(mod: ModuleRef): CompileResult {
  const key = `${mod.file}\0${mod.locals.join(',')}\0${createHash('sha256').update(mod.code).digest('hex')}\0${JSON.stringify(depsOf(mod))}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const result = compile(mod);
  if (cache.size >= COMPILE_CACHE_LIMIT) cache.clear();
  cache.set(key, result);
  return result;
}

function compile(mod: ModuleRef): CompileResult {
  // A file's own components that a page reaches through an exported one stay callable by name.
  const locals = mod.locals.length > 0 ? `\n;export { ${mod.locals.map((n) => `${n} as __mint_local_${n}`).join(', ')} };\n` : '';
  let body: string;
  try {
    body = transform(mod.code + locals, {
      transforms: ['jsx', 'imports'],
      jsxPragma: '__h',
      jsxFragmentPragma: '__F',
      production: true,
      filePath: mod.file,
    }).code;
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const loc = /\((\d+):(\d+)\)\s*$/.exec(message);
    return { ok: false, message: message.replace(/\s*\(\d+:\d+\)\s*$/, ''), ...(loc ? { line: Number(loc[1]) } : {}) };
  }
  // The module's own declarations live in an inner block, so they may shadow the prelude's names.
  // Mintlify's `user` (the signed-in reader's `content`, `{}` signed out), only for code that reads
  // it, so every other module compiles exactly as before. The runtime knows it before it loads the module.
  const user = readsUser(body);
  const prelude = user ? `${PRELUDE}var user = __mint.user ? __mint.user() : {};\n` : PRELUDE;
  const code =
    `__mintIslands.define(${JSON.stringify(mod.file)}, ${JSON.stringify(depsOf(mod))}, function (require, module, exports, __mint) {\n` +
    `"use strict";\n${prelude}{\n${body}\n}\n});\n`;
  const hash = createHash('sha256').update(code).digest('hex').slice(0, 10);
  const name = mod.file.replace(/\.[^./]+$/, '').replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '').slice(-60) || 'module';
  return { ok: true, module: { id: mod.file, bundlePath: `_static/islands/${name}.${hash}.js`, code, icons: moduleIcons(body), ...(user ? { readsUser: true as const } : {}) } };
}

/** The module and every module it imports, dependencies first (each once). */
export function moduleGraph(root: ModuleRef): ModuleRef[] {
  const out: ModuleRef[] = [];
  const seen = new Set<string>();
  const visit = (mod: ModuleRef): void => {
    if (seen.has(mod.file)) return;
    seen.add(mod.file);
    for (const dep of mod.deps.values()) if (typeof dep !== 'string') visit(dep);
    out.push(mod);
  };
  visit(root);
  return out;
}
