/** TeX rendered at build time with KaTeX (HTML + MathML), cached per process. */
import { createRequire } from 'node:module';

// Loaded on the first formula: most sites have none, and the library costs a render worker
// 50–90 ms to load.
const require = createRequire(import.meta.url);
let katexLib: typeof import('katex').default | undefined;
const katex = (): typeof import('katex').default => (katexLib ??= require('katex') as typeof import('katex').default);

const cache = new Map<string, string>();
const CACHE_LIMIT = 5000;

export function renderMath(tex: string, display: boolean): string {
  const key = `${display ? 'D' : 'I'}${tex}`;
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const html = katex().renderToString(tex, {
    displayMode: display,
    output: 'htmlAndMathml',
    throwOnError: false,
    strict: 'ignore',
    trust: false,
  });
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(key, html);
  return html;
}
