/** Source-mode completions: Mintlify components after `<`, frontmatter fields inside the leading `---` block. */
import { snippetCompletion, type Completion, type CompletionContext, type CompletionResult } from '@codemirror/autocomplete';
import { COMPONENT_NAMES, COMPONENT_SNIPPETS, FRONTMATTER_FIELDS } from './mintlify-components.js';

const componentOptions: Completion[] = COMPONENT_NAMES.map((name) =>
  snippetCompletion(COMPONENT_SNIPPETS[name] ?? `<${name}>\${}</${name}>`, { label: `<${name}`, displayLabel: name, type: 'type', detail: 'component' }),
);

const fieldOptions: Completion[] = FRONTMATTER_FIELDS.map((f) =>
  snippetCompletion(`${f.name}: \${}`, { label: f.name, type: 'property', info: f.info }),
);

/** True when `pos` is inside the frontmatter: the document starts with `---` and no closing `---` line comes before `pos`. */
export function inFrontmatter(doc: string, pos: number): boolean {
  if (!doc.startsWith('---\n') && !doc.startsWith('---\r\n')) return false;
  const close = doc.slice(4).search(/^---\s*$/m);
  return pos >= 4 && (close === -1 || pos <= close + 4);
}

export function mdxCompletions(context: CompletionContext): CompletionResult | null {
  const doc = context.state.doc.toString();
  if (inFrontmatter(doc, context.pos)) {
    const line = context.state.doc.lineAt(context.pos);
    const before = line.text.slice(0, context.pos - line.from);
    if (!/^[\w:]*$/.test(before)) return null;
    return { from: line.from, options: fieldOptions, validFor: /^[\w:]*$/ };
  }
  const tag = context.matchBefore(/<[A-Z][\w.]*|<$/);
  if (!tag) return null;
  return { from: tag.from, options: componentOptions, validFor: /^<[\w.]*$/ };
}
