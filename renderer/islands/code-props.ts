/**
 * Props that are code (`rows={callbacks()}`, `CodeBlockComponent={WidgetCodeBlock}`,
 * `onPick={() => …}`) cannot be written into `data-props`. They are compiled instead, like the
 * caller's own code, into a small module beside the caller's: the caller's imports, its top-level
 * names read from the caller's module, and `export const __mint_props = () => ({ rows: (callbacks()) })`.
 * The runtime calls it when it renders the island, in the browser and in the sandbox alike, so the
 * expression runs where every other piece of repository code runs, never in the appliance.
 */
import { createHash } from 'node:crypto';
import type { Program } from 'acorn';
import { parseModule } from '../page/js-grammar.js';
import type { ModuleRef } from '../page/scope.js';

const CALLER_SPEC = '__mint_caller__';

interface CallerShape {
  imports: string[];
  importedNames: Set<string>;
  declaredNames: string[];
}

const shapes = new Map<string, CallerShape | null>();
const SHAPE_CACHE_LIMIT = 500;

type Named = { type: string; name?: string; properties?: Named[]; elements?: (Named | null)[]; value?: Named; argument?: Named; left?: Named };

function patternNames(p: Named | null | undefined, out: string[]): void {
  if (!p) return;
  if (p.type === 'Identifier' && p.name) out.push(p.name);
  else if (p.type === 'ObjectPattern') for (const prop of p.properties ?? []) patternNames(prop.type === 'RestElement' ? prop.argument : prop.value, out);
  else if (p.type === 'ArrayPattern') for (const e of p.elements ?? []) patternNames(e, out);
  else if (p.type === 'AssignmentPattern') patternNames(p.left, out);
  else if (p.type === 'RestElement') patternNames(p.argument, out);
}

function declared(node: { type: string; [k: string]: unknown }, out: string[]): void {
  if (node.type === 'VariableDeclaration') for (const d of node['declarations'] as { id: Named }[]) patternNames(d.id, out);
  else if ((node.type === 'FunctionDeclaration' || node.type === 'ClassDeclaration') && node['id']) patternNames(node['id'] as Named, out);
}

function shapeOf(caller: ModuleRef): CallerShape | null {
  const cached = shapes.get(caller.code);
  if (cached !== undefined) return cached;
  const parsed = parseModule(caller.code);
  let shape: CallerShape | null = null;
  if (!('error' in parsed)) {
    const program: Program = parsed.program;
    const imports: string[] = [];
    const importedNames = new Set<string>();
    const declaredNames: string[] = [];
    for (const node of program.body as unknown as { type: string; start: number; end: number; [k: string]: unknown }[]) {
      if (node.type === 'ImportDeclaration') {
        imports.push(caller.code.slice(node.start, node.end));
        for (const s of node['specifiers'] as { local: { name: string } }[]) importedNames.add(s.local.name);
      } else if (node.type === 'ExportNamedDeclaration' && node['declaration']) {
        declared(node['declaration'] as { type: string }, declaredNames);
      } else {
        declared(node, declaredNames);
      }
    }
    shape = { imports, importedNames, declaredNames: declaredNames.filter((n) => !importedNames.has(n)) };
  }
  if (shapes.size >= SHAPE_CACHE_LIMIT) shapes.clear();
  shapes.set(caller.code, shape);
  return shape;
}

/** The module that computes an island's code props, or undefined when the caller's code cannot be read. */
export function codePropsModule(caller: ModuleRef, props: Record<string, string>): ModuleRef | undefined {
  const shape = shapeOf(caller);
  if (!shape) return undefined;
  // The caller's own names, read from its module (a component it keeps unexported is there as __mint_local_X).
  const names = shape.declaredNames
    .map((n) => `const ${n} = __mint_caller[${JSON.stringify(n)}] !== undefined ? __mint_caller[${JSON.stringify(n)}] : __mint_caller[${JSON.stringify(`__mint_local_${n}`)}];`)
    .join('\n');
  const body = Object.entries(props)
    .map(([name, code]) => `${JSON.stringify(name)}: (${code})`)
    .join(',\n');
  const code =
    `${shape.imports.join('\n')}\nimport * as __mint_caller from ${JSON.stringify(CALLER_SPEC)};\n` +
    `export const __mint_props = () => {\n${names}\nreturn {\n${body}\n};\n};\n`;
  const hash = createHash('sha256').update(code).digest('hex').slice(0, 8);
  const deps = new Map(caller.deps);
  deps.set(CALLER_SPEC, caller);
  return { file: `${caller.file}#props-${hash}`, code, deps, locals: [] };
}

export const EXPRESSION_EXPORT = '__mint_expr';

/**
 * A `{…}` expression of a page or snippet that the renderer cannot read as a constant
 * (`{features.map((f) => <Card …/>)}`, `{beta && <Note>…</Note>}`, `{2 + 2}`) as a component
 * module: the caller's imports and top-level names as for code props, the names given in
 * `propNames` (a snippet's props, the page's constants) taken from the island's props, and the
 * expression as what the component returns. Undefined when the caller's code cannot be read.
 */
export function expressionModule(caller: ModuleRef | undefined, file: string, expression: string, propNames: string[]): ModuleRef | undefined {
  const shape = caller ? shapeOf(caller) : { imports: [], importedNames: new Set<string>(), declaredNames: [] };
  if (!shape) return undefined;
  // A name the caller imports stays the import's (declaring it again would not compile).
  const given = new Set(propNames.filter((n) => !shape.importedNames.has(n)));
  const names = shape.declaredNames
    .filter((n) => !given.has(n))
    .map((n) => `const ${n} = __mint_caller[${JSON.stringify(n)}] !== undefined ? __mint_caller[${JSON.stringify(n)}] : __mint_caller[${JSON.stringify(`__mint_local_${n}`)}];`)
    .join('\n');
  const fromProps = given.size > 0 ? `const { ${[...given].join(', ')} } = __mint_p;\n` : '';
  const code =
    `${shape.imports.join('\n')}\n` +
    (caller ? `import * as __mint_caller from ${JSON.stringify(CALLER_SPEC)};\n` : '') +
    `export const ${EXPRESSION_EXPORT} = (__mint_p) => {\n${names}\n${fromProps}return (${expression}\n);\n};\n`;
  const hash = createHash('sha256').update(code).digest('hex').slice(0, 8);
  const deps = new Map(caller?.deps ?? []);
  if (caller) deps.set(CALLER_SPEC, caller);
  return { file: `${file}#expr-${hash}`, code, deps, locals: [] };
}
