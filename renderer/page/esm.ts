/**
 * Reading MDX `import`/`export` blocks and snippet scripts as data, from acorn's syntax tree:
 * which names come from which file, and what each top-level `const`/`function` holds (a literal,
 * a component that returns JSX, or code that is not run).
 */
import type { Program } from 'acorn';
import type { JsNode } from './js-grammar.js';
import { jsxToNodes } from './jsx-tree.js';
import { NOT_LITERAL, type Literal } from './literal.js';
import type { Node } from './tree.js';

export interface ImportDecl {
  source: string;
  line: number;
  defaultName?: string;
  namespace?: string;
  named: { imported: string; local: string }[];
}

export type ExportValue =
  | { kind: 'literal'; value: Literal }
  | { kind: 'arrow'; params: Map<string, Literal>; propsName?: string; body: string; bodyLine: number; nodes: Node[] }
  | { kind: 'opaque'; reason: string; component?: boolean };

export interface ExportDecl {
  name: string;
  line: number;
  value: ExportValue;
  /** False for a script file's own top-level declarations, which other files cannot import. */
  exported?: boolean;
}

export interface EsmBlock {
  imports: ImportDecl[];
  /** Top-level declarations: exported ones, and in scripts the file's own constants and components. */
  exports: ExportDecl[];
}

/** `program` was parsed from `code`, whose first line is file line `line`. */
export function parseEsmBlock(program: Program, code: string, line: number): EsmBlock {
  const block: EsmBlock = { imports: [], exports: [] };
  const lineAt = lineLocator(code, line);
  const declared = new Map<string, ExportDecl>();
  const declare = (decl: ExportDecl): void => {
    declared.set(decl.name, decl);
    block.exports.push(decl);
  };
  for (const stmt of program.body as unknown as JsNode[]) {
    const stmtLine = lineAt(stmt.start);
    switch (stmt.type) {
      case 'ImportDeclaration':
        block.imports.push(importDecl(stmt, stmtLine));
        break;
      case 'ExportNamedDeclaration': {
        const declaration = stmt['declaration'] as JsNode | null;
        if (declaration) for (const d of declarations(declaration, code, lineAt)) declare({ ...d, exported: true });
        if (stmt['source']) break;
        // `export { Card as Tile }`: a second name for something declared above.
        for (const spec of (stmt['specifiers'] as JsNode[] | undefined) ?? []) {
          const local = declared.get(moduleName(spec['local'] as JsNode));
          const exported = moduleName(spec['exported'] as JsNode);
          if (local && exported !== local.name) block.exports.push({ ...local, name: exported, exported: true });
        }
        break;
      }
      case 'ExportDefaultDeclaration': {
        const declaration = stmt['declaration'] as JsNode;
        const named = declarations(declaration, code, lineAt);
        for (const d of named) declare(d);
        const value = named[0]?.value ?? (declaration.type === 'Identifier' ? declared.get(String(declaration['name']))?.value : undefined) ?? exportValue(declaration, code, lineAt);
        block.exports.push({ name: 'default', line: stmtLine, value, exported: true });
        break;
      }
      case 'VariableDeclaration':
      case 'FunctionDeclaration':
        for (const d of declarations(stmt, code, lineAt)) declare(d);
        break;
      default:
        break;
    }
  }
  return block;
}

function importDecl(stmt: JsNode, line: number): ImportDecl {
  const decl: ImportDecl = { source: String((stmt['source'] as JsNode)['value']), line, named: [] };
  for (const spec of stmt['specifiers'] as JsNode[]) {
    const local = moduleName(spec['local'] as JsNode);
    if (spec.type === 'ImportDefaultSpecifier') decl.defaultName = local;
    else if (spec.type === 'ImportNamespaceSpecifier') decl.namespace = local;
    else {
      const imported = moduleName(spec['imported'] as JsNode);
      if (imported === 'default') decl.defaultName = local;
      else decl.named.push({ imported, local });
    }
  }
  return decl;
}

/** An identifier, or a string used as a module export name (`import { "a-b" as ab }`). */
function moduleName(node: JsNode): string {
  return node.type === 'Identifier' ? String(node['name']) : String(node['value']);
}

function declarations(node: JsNode, code: string, lineAt: (offset: number) => number): ExportDecl[] {
  if (node.type === 'VariableDeclaration') {
    const out: ExportDecl[] = [];
    for (const d of node['declarations'] as JsNode[]) {
      const id = d['id'] as JsNode;
      if (id.type !== 'Identifier') continue;
      const init = d['init'] as JsNode | null;
      out.push({ name: String(id['name']), line: lineAt(d.start), value: init ? exportValue(init, code, lineAt) : { kind: 'literal', value: undefined } });
    }
    return out;
  }
  if ((node.type === 'FunctionDeclaration' || node.type === 'ClassDeclaration') && node['id']) {
    return [{ name: String((node['id'] as JsNode)['name']), line: lineAt(node.start), value: exportValue(node, code, lineAt) }];
  }
  return [];
}

const FUNCTION_TYPES = new Set(['ArrowFunctionExpression', 'FunctionExpression', 'FunctionDeclaration']);
const CLASS_TYPES = new Set(['ClassDeclaration', 'ClassExpression']);

function exportValue(node: JsNode, code: string, lineAt: (offset: number) => number): ExportValue {
  const literal = astLiteral(node);
  if (literal !== NOT_LITERAL) return { kind: 'literal', value: literal };
  // Functions and classes may be components: they run in the reader's browser (renderer/islands).
  if (CLASS_TYPES.has(node.type)) return { kind: 'opaque', reason: 'a class', component: true };
  if (!FUNCTION_TYPES.has(node.type)) return { kind: 'opaque', reason: 'an expression that is not a literal' };
  const returned = returnedJsx(node);
  if (!returned) return { kind: 'opaque', reason: 'a function with a body', component: true };
  if (!staticJsx(returned)) return { kind: 'opaque', reason: 'JSX that computes', component: true };
  const params = new Map<string, Literal>();
  let propsName: string | undefined;
  const param = (node['params'] as JsNode[])[0];
  if (param?.type === 'Identifier') propsName = String(param['name']);
  else if (param?.type === 'ObjectPattern') {
    for (const prop of param['properties'] as JsNode[]) {
      if (prop.type !== 'Property') continue;
      const key = prop['key'] as JsNode;
      if (key.type !== 'Identifier' || prop['computed']) continue;
      const value = prop['value'] as JsNode;
      const def = value.type === 'AssignmentPattern' ? astLiteral(value['right'] as JsNode) : undefined;
      params.set(String(key['name']), def === NOT_LITERAL ? undefined : def);
    }
  }
  const value: ExportValue = {
    kind: 'arrow',
    params,
    body: code.slice(returned.start, returned.end),
    bodyLine: lineAt(returned.start),
    nodes: jsxToNodes(returned, code, lineAt),
  };
  if (propsName !== undefined) value.propsName = propsName;
  return value;
}

/**
 * The JSX an arrow function returns as its expression body. A function with a statement body is
 * code that would have to run (its locals and calls are unknown here), so it stays opaque.
 */
function returnedJsx(fn: JsNode): JsNode | undefined {
  const body = fn['body'] as JsNode;
  return body.type === 'JSXElement' || body.type === 'JSXFragment' ? body : undefined;
}

/**
 * JSX whose every `{…}` is a literal or a name (`{title}`, `{props.items[0]}`): the renderer fills
 * it in at export time. Calls, operators, conditionals, template strings with holes and spreads
 * are code, which only runs in the browser.
 */
function staticJsx(node: JsNode): boolean {
  switch (node.type) {
    case 'JSXElement':
    case 'JSXFragment': {
      const opening = node[node.type === 'JSXFragment' ? 'openingFragment' : 'openingElement'] as JsNode;
      for (const attr of (opening['attributes'] as JsNode[] | undefined) ?? []) {
        if (attr.type !== 'JSXAttribute') return false;
        const value = attr['value'] as JsNode | null;
        if (value && !staticJsx(value)) return false;
      }
      return (node['children'] as JsNode[]).every(staticJsx);
    }
    case 'JSXExpressionContainer':
      return staticExpression(node['expression'] as JsNode);
    default:
      return true; // JSXText, string literals
  }
}

function staticExpression(node: JsNode): boolean {
  switch (node.type) {
    case 'JSXEmptyExpression':
    case 'Identifier':
      return true;
    case 'MemberExpression':
      return staticExpression(node['object'] as JsNode) && (!node['computed'] || (node['property'] as JsNode).type === 'Literal');
    case 'ChainExpression':
      return staticExpression(node['expression'] as JsNode);
    case 'JSXElement':
    case 'JSXFragment':
      return staticJsx(node);
    default:
      return astLiteral(node) !== NOT_LITERAL;
  }
}

/** A literal written in the source (strings, numbers, booleans, null, arrays, plain objects), never evaluated. */
export function astLiteral(node: JsNode): Literal | typeof NOT_LITERAL {
  switch (node.type) {
    case 'Literal': {
      if (node['regex'] || node['bigint'] !== undefined) return NOT_LITERAL;
      const v = node['value'];
      return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' || v === null ? v : NOT_LITERAL;
    }
    case 'TemplateLiteral': {
      if ((node['expressions'] as JsNode[]).length > 0) return NOT_LITERAL;
      const cooked = ((node['quasis'] as JsNode[])[0]?.['value'] as { cooked?: string | null } | undefined)?.cooked;
      return typeof cooked === 'string' ? cooked : NOT_LITERAL;
    }
    case 'Identifier':
      return node['name'] === 'undefined' ? undefined : NOT_LITERAL;
    case 'UnaryExpression': {
      const arg = astLiteral(node['argument'] as JsNode);
      if (typeof arg !== 'number') return NOT_LITERAL;
      return node['operator'] === '-' ? -arg : node['operator'] === '+' ? arg : NOT_LITERAL;
    }
    case 'ArrayExpression': {
      const out: Literal[] = [];
      for (const el of node['elements'] as (JsNode | null)[]) {
        if (!el) return NOT_LITERAL;
        const v = astLiteral(el);
        if (v === NOT_LITERAL) return NOT_LITERAL;
        out.push(v);
      }
      return out;
    }
    case 'ObjectExpression': {
      // A null prototype: keys such as `__proto__` from user content stay plain data.
      const out = Object.create(null) as { [key: string]: Literal };
      for (const prop of node['properties'] as JsNode[]) {
        if (prop.type !== 'Property' || prop['kind'] !== 'init' || prop['method'] || prop['shorthand']) return NOT_LITERAL;
        const key = prop['key'] as JsNode;
        let name: string;
        if (key.type === 'Identifier' && !prop['computed']) name = String(key['name']);
        else if (key.type === 'Literal' && (typeof key['value'] === 'string' || typeof key['value'] === 'number')) name = String(key['value']);
        else return NOT_LITERAL;
        const v = astLiteral(prop['value'] as JsNode);
        if (v === NOT_LITERAL) return NOT_LITERAL;
        out[name] = v;
      }
      return out;
    }
    default:
      return NOT_LITERAL;
  }
}

/** Offset in `code` → file line, by binary search over the line starts. */
export function lineLocator(code: string, firstLine: number): (offset: number) => number {
  const starts = [0];
  for (let i = code.indexOf('\n'); i !== -1; i = code.indexOf('\n', i + 1)) starts.push(i + 1);
  return (offset) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((starts[mid] ?? 0) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return firstLine + lo;
  };
}
