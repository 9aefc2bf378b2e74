import { describe, expect, it } from 'vitest';
import { parseBlocks, serializeBlocks } from '../../app/editor/visual/blocks.js';
import { loadVisualDocument, setBaseline, sourceFromVisual, type VisualSession } from '../../app/editor/visual/document.js';
import { checkRoundTrip, loadThroughSchema } from '../../app/editor/visual/roundtrip.js';
import type { PmNode } from '../../app/editor/visual/pm-json.js';

/** Pages written to be awkward for a serializer: each must come back byte for byte. */
const FIXTURES: Record<string, string> = {
  frontmatter: '---\ntitle: "Quick start"\ndescription: Start here\n---\n\n# Quick start\n\nSome *prose* with __strong__ text.\n',
  nestedComponents:
    '<Tabs>\n  <Tab title="npm">\n    Install it:\n\n    ```bash\n    npm i thing\n    ```\n  </Tab>\n  <Tab title="yarn">\n    <Steps>\n      <Step title="One">\n        First *step*.\n      </Step>\n    </Steps>\n  </Tab>\n</Tabs>\n',
  indentedCode: 'Text before.\n\n    indented code\n      more\n\nAfter.\n',
  jsxExpressions: 'import { Thing } from "/snippets/thing.mdx";\n\nexport const x = { a: 1 };\n\nValue: {x.a} and <Thing prop={[1, 2]} />.\n\n{/* a comment */}\n\n<Card title={`T ${x.a}`} href="/a" icon="star" />\n',
  tables: '| Name | Type |\n| :--- | ---: |\n| `a`  | string |\n|b|number|\n',
  crlf: '---\r\ntitle: CRLF\r\n---\r\n\r\n## Heading\r\n\r\n* one\r\n* two\r\n\r\n<Note>\r\n  A note.\r\n</Note>\r\n',
  trailingWhitespace: '# Title   \n\nLine with two spaces  \nnext line\t\n\n   \n- item  \n',
  noFinalNewline: '# Title\n\nLast paragraph without newline',
  mdxCommentsAndHtml: '{/* hidden */}\n\nText {/* inline */} here.\n\n<div className="x">\n  <p>html</p>\n</div>\n',
  manyBlankLines: '\n\n\n# Start\n\n\n\n\nMiddle\n\n\n\n',
  bom: '\uFEFF# With BOM\n\nText.\n',
  empty: '',
  whitespaceOnly: '  \n\n',
  accordion: '<AccordionGroup>\n<Accordion title="Q1" defaultOpen>\nAnswer with [a link](https://example.com "t").\n</Accordion>\n</AccordionGroup>\n',
  lists: '1. one\n2. two\n   - nested\n   - nested two\n\n10) ten\n\n- [ ] task\n- [x] done\n\n+ plus\n+ bullets\n',
  codeMeta: '```js title="a.js" {1,3}\nconst a = 1;\n```\n\n~~~\ntilde\n~~~\n',
  images: '![Alt text](/images/a.png "Title")\n\n<img src="/b.png" />\n',
};

function load(source: string): { session: VisualSession; json: PmNode } {
  const loaded = loadVisualDocument(source);
  if (!loaded.ok) throw new Error(`did not load: ${JSON.stringify(loaded.error)}`);
  const json = loadThroughSchema(loaded.json);
  setBaseline(loaded.session, json);
  return { session: loaded.session, json };
}

function clone<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

describe('visual mode block model: no-edit round trip', () => {
  for (const [name, source] of Object.entries(FIXTURES)) {
    it(`${name} comes back byte for byte through the blocks and the editor's document`, () => {
      expect(serializeBlocks((parseBlocks(source) as { ok: true; doc: Parameters<typeof serializeBlocks>[0] }).doc)).toBe(source);
      const result = checkRoundTrip(source);
      expect(result.status).toBe('identical');
    });
  }
});

describe('visual mode block model: what opens as what', () => {
  it('splits a page into top-level blocks with exact offsets', () => {
    const parsed = parseBlocks(FIXTURES.jsxExpressions!);
    if (!parsed.ok) throw new Error('parse failed');
    expect(parsed.doc.blocks.map((b) => b.kind)).toEqual(['esm', 'esm', 'paragraph', 'other', 'component']);
    const card = parsed.doc.blocks[4]!;
    expect(parsed.doc.source.slice(card.start, card.end)).toBe('<Card title={`T ${x.a}`} href="/a" icon="star" />');
  });

  it('edits prose and known components visually; inline JSX, tables, task lists, HTML and ESM stay raw', () => {
    const types = (source: string) => (load(source).json.content ?? []).map((n) => n.type);
    expect(types(FIXTURES.frontmatter!)).toEqual(['rawBlock', 'heading', 'paragraph']);
    expect(types(FIXTURES.jsxExpressions!)).toEqual(['rawBlock', 'rawBlock', 'rawBlock', 'rawBlock', 'mdxComponent']);
    expect(types(FIXTURES.tables!)).toEqual(['rawBlock']);
    expect(types(FIXTURES.lists!)).toEqual(['orderedList', 'orderedList', 'rawBlock', 'bulletList']);
    expect(types(FIXTURES.mdxCommentsAndHtml!)).toEqual(['rawBlock', 'rawBlock', 'rawBlock']);
    expect(types(FIXTURES.images!)).toEqual(['paragraph', 'rawBlock']);
    const tabs = load(FIXTURES.nestedComponents!).json.content![0]!;
    expect(tabs.type).toBe('mdxComponent');
    expect(tabs.content!.map((t) => [t.type, t.attrs?.name])).toEqual([['mdxComponent', 'Tab'], ['mdxComponent', 'Tab']]);
    expect(tabs.content![0]!.content!.map((n) => n.type)).toEqual(['paragraph', 'codeBlock']);
  });
});

describe('visual mode block model: an edit changes only the edited block', () => {
  it('re-serializes the edited heading and keeps every other byte', () => {
    const source = '---\ntitle: T\n---\n\n# Old title\n\n* keep   this\n* list\n\nPara  \nwith trailing spaces.\n';
    const { session, json } = load(source);
    const edited = clone(json);
    edited.content![1]!.content = [{ type: 'text', text: 'New title' }];
    expect(sourceFromVisual(session, edited)).toBe(source.replace('# Old title', '# New title'));
  });

  it('writes an edited block in the file\'s own style and line endings', () => {
    const { session, json } = load(FIXTURES.crlf!);
    const edited = clone(json);
    const list = edited.content![2]!;
    list.content!.push(clone(list.content![0]!));
    list.content![2]!.content![0]!.content = [{ type: 'text', text: 'three', marks: [{ type: 'italic' }] }];
    const out = sourceFromVisual(session, edited);
    expect(out).toBe(FIXTURES.crlf!.replace('* one\r\n* two\r\n', '* one\r\n* two\r\n* *three*\r\n'));
  });

  it('re-serializes only the component whose child was edited', () => {
    const source = 'Intro   text.\n\n<Note>\n  A note.\n</Note>\n\n<Warning>\n  Careful.\n</Warning>\n';
    const { session, json } = load(source);
    const edited = clone(json);
    edited.content![1]!.content![0]!.content = [{ type: 'text', text: 'An edited note.' }];
    expect(sourceFromVisual(session, edited)).toBe(source.replace('A note.', 'An edited note.'));
  });

  it('writes a changed attribute field into the tag', () => {
    const source = 'Text.\n\n<Card title="Old" href="/a" icon="star">\n  Body\n</Card>\n';
    const { session, json } = load(source);
    const edited = clone(json);
    const attrs = edited.content![1]!.attrs!.attributes as { name: string; value: string }[];
    attrs[0]!.value = 'New';
    expect(sourceFromVisual(session, edited)).toBe('Text.\n\n<Card title="New" href="/a" icon="star">\n  Body\n</Card>\n');
  });

  it('emits an edited raw block verbatim, and deleting or inserting blocks touches only the seams', () => {
    const source = '# A\n\n| x |\n|---|\n| 1 |\n\n\n\nLast.\n';
    const { session, json } = load(source);
    const rawEdit = clone(json);
    rawEdit.content![1]!.attrs!.text = '| x |\n|---|\n| 2 |';
    expect(sourceFromVisual(session, rawEdit)).toBe(source.replace('| 1 |', '| 2 |'));

    const deleted = clone(json);
    deleted.content!.splice(1, 1);
    expect(sourceFromVisual(session, deleted)).toBe('# A\n\nLast.\n');

    const inserted = clone(json);
    inserted.content!.splice(1, 0, { type: 'paragraph', attrs: { blockIndex: null }, content: [{ type: 'text', text: 'New <b> {x}' }] });
    expect(sourceFromVisual(session, inserted)).toBe('# A\n\nNew \\<b> \\{x}\n\n| x |\n|---|\n| 1 |\n\n\n\nLast.\n');
  });

  it('keeps whitespace at the edge of a bold run outside the run (so the Markdown stays bold)', () => {
    const { session, json } = load('Plain text.\n');
    const edited = clone(json);
    edited.content![0]!.content = [{ type: 'text', text: 'A ' }, { type: 'text', text: 'bold ', marks: [{ type: 'bold' }] }, { type: 'text', text: 'word.' }];
    expect(sourceFromVisual(session, edited)).toBe('A **bold** word.\n');
  });

  it('a split copy carrying the same block index is serialized, not given the original bytes twice', () => {
    const source = 'One   two.\n';
    const { session, json } = load(source);
    const edited = clone(json);
    edited.content!.push(clone(edited.content![0]!));
    expect(sourceFromVisual(session, edited)).toBe('One   two.\n\nOne   two.\n');
  });
});

describe('visual mode block model: broken MDX', () => {
  it('refuses an unclosed component with the line and column of the error', () => {
    const loaded = loadVisualDocument('# Title\n\n<Note>\nUnclosed note\n');
    expect(loaded.ok).toBe(false);
    if (loaded.ok) return;
    expect([loaded.error.line, loaded.error.column]).toEqual([3, 1]);
    expect(loaded.error.message).toMatch(/Note/);
  });

  it('refuses an HTML comment (not MDX: Mintlify\'s parser rejects it too) at its line:column', () => {
    const result = checkRoundTrip('# Title\n\nText.\n\n<!-- hidden -->\n');
    expect(result.status).toBe('refused');
    if (result.status !== 'refused') return;
    expect([result.error.line, result.error.column]).toEqual([5, 2]);
  });

  it('refuses a broken expression at its line:column', () => {
    const result = checkRoundTrip('Para.\n\nValue {1 +} here.\n');
    expect(result.status).toBe('refused');
    if (result.status !== 'refused') return;
    expect(result.error.line).toBe(3);
    expect(result.error.column).toBeGreaterThan(1);
  });
});
