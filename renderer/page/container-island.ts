/**
 * A container whose items come from code: `<Tabs>{langs.map((l) => <Tab title={l}>…</Tab>)}</Tabs>`,
 * `<Steps>{steps.map(…)}</Steps>`. The built-in containers take their items from written
 * elements (components/call.ts `childElements`), so such items were left out and the reader saw
 * an empty tab bar. As MDX compiles it, the whole container is then one piece of code: it runs as
 * an expression island (expression-island.ts), pre-rendered in the sandbox by the runtime's own
 * Tabs and Steps, which write the same markup as the static ones.
 *
 * Only containers whose content is code alone (whitespace and expressions) are taken so: written
 * items hold Markdown, which JSX would show as typed.
 */
import type { Env } from './env.js';
import { evaluate } from './evaluate.js';
import { renderExpressionIsland } from './expression-island.js';
import { decodeEntities } from './html.js';
import type { PageState } from './state.js';
import type { Attr, ElementNode } from './tree.js';

const ITEM_CONTAINERS = new Set(['Tabs', 'Steps', 'Tree', 'Color']);

function jsxAttrs(attrs: Attr[]): string {
  let out = '';
  for (const a of attrs) {
    if (a.value.kind === 'bool') out += ` ${a.name}`;
    // JSX decodes character references in attribute strings; a JS string literal does not.
    else if (a.value.kind === 'string') out += ` ${a.name}={${JSON.stringify(decodeEntities(a.value.value))}}`;
    else out += ` ${a.name}={${a.value.code}}`;
  }
  return out;
}

/** The container as JSX, when its items come from code; undefined to render it as written. */
function asCode(el: ElementNode, env: Env): string | undefined {
  if (!ITEM_CONTAINERS.has(el.name)) return undefined;
  let items = '';
  let code = false;
  for (const child of el.children) {
    if (child.kind === 'text' && child.value.trim() === '') continue;
    if (child.kind !== 'expr') return undefined;
    const trimmed = child.code.trim();
    // A wrapper component's `{children}` is expanded where it is written (childElements).
    if (trimmed === 'children' || trimmed === 'props.children') return undefined;
    const result = evaluate(child.code, env.scope);
    if (result.kind === 'comment') continue;
    if (result.kind === 'value') return undefined;
    items += `{${child.code}}`;
    code = true;
  }
  return code ? `<${el.name}${jsxAttrs(el.attrs)}>${items}</${el.name}>` : undefined;
}

/** The container's island, or `written()` (its items left out, as before) when it has none or cannot run. */
export function containerFromCode(el: ElementNode, env: Env, state: PageState, written: () => string): string | undefined {
  const jsx = asCode(el, env);
  if (jsx === undefined) return undefined;
  return renderExpressionIsland(jsx, el.line, env, state, el.block, () => {
    state.warn('unsupported-expression', `<${el.name}> takes its items from code that could not be run here; they are left out`, env.file, el.line);
    return written();
  });
}
