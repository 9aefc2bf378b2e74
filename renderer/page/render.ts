/**
 * Renders the MDX tree: markdown text goes to marked in as few calls as possible, while elements
 * and expressions are rendered first and stand in the markdown as placeholders (see state.ts).
 * Built-in components live in components/, user components (snippets, arrow functions) here.
 */
import { renderIsland, withoutRepeatedSlots } from '../islands/island.js';
import { RenderError } from '../types.js';
import { ACCESS_ELEMENT, ENUM_ELEMENT, renderAccessElement, renderEnumElement } from './access-fragment.js';
import { BUILTIN_COMPONENTS } from './components/index.js';
import { ComponentCall } from './components/call.js';
import type { Env } from './env.js';
import { evaluate, literalToText } from './evaluate.js';
import { decodeEntities, escapeHtml, htmlToText } from './html.js';
import { renderHtmlElement } from './html-element.js';
import type { Literal } from './literal.js';
import { renderMarkdown } from './markdown.js';
import { renderMath } from './math.js';
import { withValues, type ComponentDef } from './scope.js';
import { codeAsText, renderExpressionIsland } from './expression-island.js';
import { containerFromCode } from './container-island.js';
import { findLegacySnippet, legacyCandidates, loadSnippet } from './snippets.js';
import { BLOCK_CLOSE, BLOCK_OPEN, type PageState } from './state.js';
import type { ElementNode, Node } from './tree.js';

const MAX_COMPONENT_DEPTH = 40;
/**
 * A text node holding nothing but rendered blocks' placeholders (the code blocks the OpenAPI
 * renderer puts in its examples panels): slots, like elements, with nothing for marked to read.
 * An author's text cannot hold one (withoutPlaceholders).
 */
const BLOCK_SLOTS_ONLY_RE = new RegExp(`^\\s*(?:${BLOCK_OPEN}\\d+${BLOCK_CLOSE}\\s*)+$`);
const LEFTOVER_VARIABLE_RE = /^\{\s*[A-Za-z_][\w.-]*\s*\}$/;

export type Mode = 'block' | 'inline';

/** HTML (with placeholders) for a list of sibling nodes. */
export function renderNodes(nodes: Node[], env: Env, state: PageState, mode: Mode): string {
  // Pieces joined once at the end: a page of 20,000 components must not re-read a growing string
  // for every block (that was quadratic: 4 s of 5 for such a page).
  const parts: string[] = [];
  let onlySlots = true;
  for (let index = 0; index < nodes.length; index++) {
    const node = nodes[index] as Node;
    switch (node.kind) {
      case 'text':
        parts.push(node.value);
        if (onlySlots && node.value.trim() !== '' && !BLOCK_SLOTS_ONLY_RE.test(node.value)) onlySlots = false;
        break;
      case 'esm':
        break;
      case 'expr': {
        const block = mode === 'block' && standsAlone(nodes, index);
        const out = renderExpression(node.code, node.line, env, state, block);
        if (typeof out !== 'string') {
          appendBlock(parts, out.block);
          onlySlots = false;
        } else if (out !== '') {
          parts.push(out);
          onlySlots = false;
        }
        break;
      }
      case 'math': {
        state.usesMath = true;
        const tex = renderMath(node.tex, node.display);
        if (node.block && mode === 'block') {
          appendBlock(parts, state.block(`<div class="c-math c-math--display">${tex}</div>`, node.tex));
        } else {
          // Inside a paragraph even display math stays phrasing content (a span styled as a block).
          parts.push(state.inline(`<span class="c-math${node.display ? ' c-math--display' : ''}">${tex}</span>`, node.tex));
        }
        onlySlots = false;
        break;
      }
      case 'element': {
        const html = renderElement(node, env, state);
        if (html === '') break;
        // An island's slots repeat its first paint: its words count once in the page's text. Only a
        // page with islands has such slots (renderIsland sets state.islands first).
        const text = state.takeElementText(node) ?? htmlToText(state.islands ? withoutRepeatedSlots(html) : html);
        if (node.block && mode === 'block') {
          appendBlock(parts, state.block(html, text));
        } else {
          parts.push(state.inline(html, text));
        }
        break;
      }
    }
  }
  const md = parts.join('');
  if (onlySlots) return md.replace(/^[ \t]+|[ \t]+$/gm, '').replace(/\n+/g, '\n').trim();
  if (mode === 'inline') return renderMarkdown(collapseInline(md), 'inline', state, env);
  return renderMarkdown(dedent(md), 'block', state, env);
}

const isBlank = (code: number): boolean => code === 32 || code === 9;

/**
 * A block placeholder on a line of its own, at the indentation it had (so it stays inside a list
 * item), with blank lines around it so it never joins a paragraph (marked would wrap it in <p>).
 * The indentation is the spaces and tabs after the last newline of what came before; they move
 * from the end of the text to the placeholder's own line.
 */
function appendBlock(parts: string[], placeholder: string): void {
  let indent = '';
  let lineStart = true;
  for (let i = parts.length - 1; i >= 0; i--) {
    const part = parts[i] as string;
    let k = part.length;
    while (k > 0 && isBlank(part.charCodeAt(k - 1))) k--;
    indent = part.slice(k) + indent;
    if (k > 0) {
      lineStart = part.charCodeAt(k - 1) === 10;
      break;
    }
  }
  if (!lineStart) indent = '';
  for (let cut = indent.length; cut > 0; ) {
    const last = parts.pop() as string;
    if (last.length > cut) parts.push(last.slice(0, last.length - cut));
    cut -= Math.min(cut, last.length);
  }
  parts.push(`\n\n${indent}${placeholder}\n\n`);
}

/** Inline content that spans lines inside an inline element: one paragraph's worth of text. */
function collapseInline(md: string): string {
  return md.includes('\n') ? md.replace(/\n[ \t]*/g, '\n').trim() : md;
}

/** Removes the indentation common to all non-blank lines (content nested in indented JSX). */
export function dedent(text: string): string {
  let min = Infinity;
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    let n = 0;
    while (line[n] === ' ' || line[n] === '\t') n++;
    if (n < min) min = n;
    if (min === 0) return text;
  }
  if (min === Infinity || min === 0) return text;
  return text
    .split('\n')
    .map((line) => line.slice(Math.min(min, line.length - line.trimStart().length)))
    .join('\n');
}

/** An expression on lines of its own (flow content in MDX), not inside a paragraph's text. */
function standsAlone(nodes: Node[], index: number): boolean {
  const before = nodes[index - 1];
  const after = nodes[index + 1];
  const startsLine = before === undefined || (before.kind === 'text' && /(?:^|\n)[ \t]*$/.test(before.value));
  const endsLine = after === undefined || (after.kind === 'text' && /^[ \t]*(?:\n|$)/.test(after.value));
  return startsLine && endsLine;
}

function renderExpression(code: string, line: number, env: Env, state: PageState, block = false): string | { block: string } {
  const trimmed = code.trim();
  if ((trimmed === 'children' || trimmed === 'props.children') && env.children) {
    const { nodes, env: callerEnv, multiline } = env.children;
    const html = renderNodes(nodes, callerEnv, state, multiline ? 'block' : 'inline');
    return state.inline(html, htmlToText(html));
  }
  // `{{name}}` left by substituteVariables (an unknown variable, already reported): shown as written.
  if (LEFTOVER_VARIABLE_RE.test(code)) return state.inline(escapeHtml(`{${code}}`), `{${code}}`);
  const result = evaluate(code, env.scope);
  if (result.kind === 'comment') return '';
  if (result.kind === 'value') {
    const text = literalToText(result.value);
    return text === '' ? '' : state.inline(escapeHtml(text), text);
  }
  const raw = `{${code}}`;
  const asWritten = (): string => {
    state.warn('unsupported-expression', `{${trimmed.slice(0, 60)}} is not a known constant; it is shown as written`, env.file, line);
    return '';
  };
  // Code runs where the repository's components run: in the reader's browser, pre-rendered in
  // the sandbox. What cannot be pre-rendered there is shown as written, as before.
  const island = renderExpressionIsland(code, line, env, state, block, asWritten);
  if (island === '') return state.inline(`<code class="c-expression">${escapeHtml(raw)}</code>`, raw);
  const text = htmlToText(withoutRepeatedSlots(island));
  return block ? { block: state.block(island, text) } : state.inline(island, text);
}

/** Evaluated attributes: strings as written, `{…}` through the safe evaluator, bare ones `true`. */
/**
 * With `state`, an attribute that is code (`title={strings.installSDK("ws")}`, a name bound to an
 * object the literal reader refuses because it holds functions) is computed in the sandbox, as
 * text; without, or when that fails, it is left out as before.
 */
export function evaluateProps(el: ElementNode, env: Env, state?: PageState): Record<string, Literal> {
  const props: Record<string, Literal> = Object.create(null) as Record<string, Literal>;
  for (const attr of el.attrs) {
    const v = attr.value;
    // JSX decodes character references in attribute strings (`title="Caf&eacute;"`); output escapes again.
    if (v.kind === 'string') props[attr.name] = decodeEntities(v.value);
    else if (v.kind === 'bool') props[attr.name] = true;
    else {
      const r = evaluate(v.code, env.scope);
      if (r.kind === 'value') props[attr.name] = r.value;
      else if (state && r.kind === 'unsupported') {
        const text = codeAsText(v.code, env, state);
        if (text !== undefined) props[attr.name] = text;
      }
    }
  }
  return props;
}

export function renderElement(el: ElementNode, env: Env, state: PageState): string {
  if (el.name === '') return renderNodes(el.children, env, state, el.multiline ? 'block' : 'inline');
  // Internal elements of generated API pages (no MDX source can name them: they start with NUL).
  if (el.name === ACCESS_ELEMENT) return renderAccessElement(el, state, () => renderNodes(el.children, env, state, el.multiline ? 'block' : 'inline'));
  if (el.name === ENUM_ELEMENT) return renderEnumElement(el, state);
  const userDef = env.scope.components.get(el.name);
  if (userDef) return renderUserComponent(userDef, el, env, state);
  if (isLowercase(el.name)) return renderHtmlElement(el, env, state);
  if (el.name === 'Snippet') return renderLegacySnippet(el, env, state);
  const builtin = Object.hasOwn(BUILTIN_COMPONENTS, el.name) ? BUILTIN_COMPONENTS[el.name] : undefined;
  state.componentDepth++;
  try {
    if (builtin) {
      const written = (): string => builtin(new ComponentCall(el, env, state));
      return containerFromCode(el, env, state, written) ?? written();
    }
    state.warn('unknown-component', `<${el.name}> is not a known component; its content is shown without it`, env.file, el.line);
    const inner = renderNodes(el.children, env, state, el.multiline ? 'block' : 'inline');
    const tag = el.block ? 'div' : 'span';
    return `<${tag} class="c-unknown" data-component="${escapeHtml(el.name)}">${inner}</${tag}>`;
  } finally {
    state.componentDepth--;
  }
}

function isLowercase(name: string): boolean {
  const c = name.charCodeAt(0);
  return c >= 97 && c <= 122;
}

function enterComponent(state: PageState, el: ElementNode, env: Env): void {
  state.snippetDepth++;
  if (state.snippetDepth > MAX_COMPONENT_DEPTH) {
    throw new RenderError(`<${el.name}> nests snippets or components more than ${MAX_COMPONENT_DEPTH} deep (a snippet that uses itself?)`, {
      file: env.file,
      line: el.line,
    });
  }
}

function renderUserComponent(def: ComponentDef, el: ElementNode, env: Env, state: PageState): string {
  if (def.kind === 'module') {
    enterComponent(state, el, env);
    try {
      return renderIsland(def, el, env, state);
    } finally {
      state.snippetDepth--;
    }
  }
  if (def.kind === 'opaque') {
    state.warn(
      'unknown-component',
      `<${el.name}> is defined by code that is not run (${def.reason}); its content is shown without it`,
      env.file,
      el.line,
    );
    const inner = renderNodes(el.children, env, state, el.multiline ? 'block' : 'inline');
    const tag = el.block ? 'div' : 'span';
    return `<${tag} class="c-unknown" data-component="${escapeHtml(el.name)}">${inner}</${tag}>`;
  }
  const body = userComponentBody(def, el, env, state);
  enterComponent(state, el, env);
  try {
    return renderNodes(body.nodes, body.env, state, def.kind === 'snippet' && el.block ? 'block' : 'inline');
  } finally {
    state.snippetDepth--;
  }
}

/**
 * What a snippet or arrow-function component stands for at one call: its nodes, in the env of
 * its own file with the call's props bound and the caller's children reachable.
 */
export function userComponentBody(
  def: Extract<ComponentDef, { kind: 'snippet' | 'arrow' }>,
  el: ElementNode,
  env: Env,
  state: PageState,
): { nodes: Node[]; env: Env } {
  const props = evaluateProps(el, env, state);
  const children = { nodes: el.children, env, multiline: el.multiline };
  if (def.kind === 'snippet') {
    const s = def.snippet;
    const values = new Map<string, Literal>(Object.entries(props));
    return { nodes: s.nodes, env: { file: s.file, source: s.source, firstLine: s.firstLine, scope: withValues(s.scope, values), children } };
  }
  const values = new Map<string, Literal>();
  for (const [name, fallback] of def.params) values.set(name, props[name] ?? fallback);
  if (def.propsName) values.set(def.propsName, props);
  return { nodes: def.body, env: { file: def.file, source: def.source, firstLine: def.firstLine, scope: withValues(def.scope, values), children } };
}

function renderLegacySnippet(el: ElementNode, env: Env, state: PageState): string {
  const props = evaluateProps(el, env);
  const name = typeof props['file'] === 'string' ? props['file'] : undefined;
  const where = { file: env.file, line: el.line };
  if (!name) throw new RenderError('<Snippet> needs a file="…" attribute', where);
  let rel: string | undefined;
  try {
    rel = findLegacySnippet(name, state.ctx.repoRoot, where);
  } catch (err) {
    if (!(err instanceof RenderError)) throw err;
    state.warn('missing-snippet', `Snippet ${name} points outside the repository; nothing is shown`, env.file, el.line);
    return '';
  }
  if (rel === undefined) {
    // The legacy component looked its file up when the page was shown, and showed nothing when it
    // was missing; an `import` of a missing file, by contrast, never compiled (RenderError).
    state.warn('missing-snippet', `Snippet ${name} not found (looked in ${legacyCandidates(name).join(', ')}); nothing is shown`, env.file, el.line);
    return '';
  }
  const snippet = loadSnippet(rel, state.ctx.repoRoot, where, state.snippetMemo, state.warn.bind(state));
  return renderUserComponent({ kind: 'snippet', snippet }, el, env, state);
}


