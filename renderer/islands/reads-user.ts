/**
 * Whether compiled component code reads Mintlify's free `user` name (create/personalization.mdx:
 * `{user.firstName}`, `user.plan === 'enterprise' ? … : …`) rather than a `user` of its own (a
 * parameter, a constant, a property `props.user`). Read from the syntax tree (acorn), never run.
 * A module that declares `user` anywhere is taken to mean its own.
 */
import { parse } from 'acorn';

type AnyNode = { type: string; [k: string]: unknown };

function isNode(v: unknown): v is AnyNode {
  return v !== null && typeof v === 'object' && typeof (v as { type?: unknown }).type === 'string';
}

function patternHasUser(p: unknown): boolean {
  if (!isNode(p)) return false;
  switch (p.type) {
    case 'Identifier':
      return p['name'] === 'user';
    case 'ObjectPattern':
      return (p['properties'] as AnyNode[]).some((q) => patternHasUser(q.type === 'RestElement' ? q['argument'] : q['value']));
    case 'ArrayPattern':
      return (p['elements'] as unknown[]).some(patternHasUser);
    case 'AssignmentPattern':
      return patternHasUser(p['left']);
    case 'RestElement':
      return patternHasUser(p['argument']);
    default:
      return false;
  }
}

export function readsUser(code: string): boolean {
  if (!/\buser\b/.test(code)) return false;
  let program: AnyNode;
  try {
    program = parse(code, { ecmaVersion: 'latest', sourceType: 'script', allowReturnOutsideFunction: true }) as unknown as AnyNode;
  } catch {
    // Code acorn refuses would not run either; a plain word test is the best guess.
    return /(?<![.\w$])user\b/.test(code);
  }
  let declares = false;
  let reads = false;
  const visit = (node: AnyNode, parent: AnyNode | undefined, key: string): void => {
    if (declares) return;
    switch (node.type) {
      case 'VariableDeclarator':
        if (patternHasUser(node['id'])) declares = true;
        break;
      case 'FunctionDeclaration':
      case 'FunctionExpression':
      case 'ArrowFunctionExpression':
        if (patternHasUser(node['id']) || (node['params'] as unknown[]).some(patternHasUser)) declares = true;
        break;
      case 'ClassDeclaration':
      case 'CatchClause':
        if (patternHasUser(node['id']) || patternHasUser(node['param'])) declares = true;
        break;
      case 'Identifier':
        if (node['name'] === 'user') {
          const property = parent && parent.type === 'MemberExpression' && key === 'property' && parent['computed'] !== true;
          const objectKey = parent && (parent.type === 'Property' || parent.type === 'PropertyDefinition' || parent.type === 'MethodDefinition') && key === 'key' && parent['computed'] !== true && parent['shorthand'] !== true;
          if (!property && !objectKey) reads = true;
        }
        break;
    }
    for (const [k, v] of Object.entries(node)) {
      if (Array.isArray(v)) {
        for (const item of v) if (isNode(item)) visit(item, node, k);
      } else if (isNode(v)) visit(v, node, k);
    }
  };
  visit(program, undefined, '');
  return reads && !declares;
}
