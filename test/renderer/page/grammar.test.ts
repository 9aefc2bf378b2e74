/**
 * The JS/JSX grammar of pages and snippets (acorn + acorn-jsx): what MDX and Mintlify accept
 * parses, what they refuse fails with file:line:column and the parser's message.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareSandbox } from '../../../renderer/islands/sandbox.js';
import { renderPageContent } from '../../../renderer/page/index.js';
import { RenderError } from '../../../renderer/types.js';
import { codes, makeCtx } from './helpers.js';

const repo = fs.mkdtempSync(path.join(os.tmpdir(), 'page-grammar-'));
afterAll(() => fs.rmSync(repo, { recursive: true, force: true }));

function write(files: Record<string, string>): void {
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(repo, rel)), { recursive: true });
    fs.writeFileSync(path.join(repo, rel), text);
  }
}

const ctx = makeCtx({ repoRoot: repo });
const render = (source: string, file = 'page.mdx') => renderPageContent({ file, source, ctx });

function failure(source: string, file = 'page.mdx'): RenderError {
  try {
    render(source, file);
  } catch (err) {
    if (err instanceof RenderError) return err;
    throw err;
  }
  throw new Error('expected the render to fail');
}

write({
  'snippets/widget.jsx': [
    "import { useState } from 'react';",
    '',
    'const label = `Widget`;',
    '',
    'export const Panel = ({ title = "Untitled", ...rest }) => (',
    '  <Note',
    '    // a line comment inside the opening tag',
    '    /* and a block comment */',
    '    data-kind={rest?.kind ?? "plain"}',
    '  >',
    '    <strong>{title}</strong> panel',
    '  </Note>',
    ');',
    '',
    'export const Stateful = () => {',
    '  const [open, setOpen] = useState(false);',
    '  return <button onClick={() => { setOpen(!open); }}>{open ? "close" : "open"}</button>;',
    '};',
    '',
    'export const plans = { pro: { name: `Pro`, seats: 5 }, list: [1, -2] };',
    '',
  ].join('\n'),
  'snippets/typed.tsx': [
    'interface Props { title: string; count?: number }',
    '',
    'export const Typed = ({ title }: Props) => <Tip>{title} is typed</Tip>;',
    '',
    'export const answer: number = 42;',
    '',
  ].join('\n'),
  'snippets/broken.jsx': 'export const Broken = () => (\n  <div>\n    {1 +}\n  </div>\n);\n',
});

describe('JSX grammar in snippets', () => {
  // Components that compute are pre-rendered in the sandbox, which render workers load up front.
  beforeAll(() => prepareSandbox());

  it('reads a .jsx snippet with comments inside a tag, spread, optional chaining, template literals and a function with a body', () => {
    const page = render("import { Panel, Stateful, plans } from '/snippets/widget.jsx';\n\n<Panel title=\"Alpha\" />\n\nPlan {plans.pro.name} has {plans.pro.seats} seats.\n\n<Stateful />\n");
    expect(page.html).toMatch(/c-callout--note.*<strong>Alpha<\/strong> panel/s);
    expect(page.html).toContain('Plan Pro has 5 seats.');
    // `rest?.kind ?? "plain"` and a function with a statement body are code: islands, pre-rendered in the sandbox.
    expect(page.html).toContain('data-island="snippets/widget.jsx#Panel"');
    expect(page.html).toContain('data-island="snippets/widget.jsx#Stateful" data-props="{}"><button>open</button></div>');
    expect(page.warnings).toEqual([]);
  });

  it('strips TypeScript types from .tsx snippets and keeps their JSX and constants', () => {
    const page = render("import { Typed, answer } from '/snippets/typed.tsx';\n\n<Typed title=\"Config\" />\n\nThe answer is {answer}.\n");
    expect(page.html).toMatch(/c-callout--tip.*Config is typed/s);
    expect(page.html).toContain('The answer is 42.');
    expect(page.warnings).toEqual([]);
  });

  it('fails on a snippet that is not valid JavaScript with file:line:column and the parser message', () => {
    const err = failure("import { Broken } from '/snippets/broken.jsx';\n\n<Broken />\n");
    expect(err.file).toBe('snippets/broken.jsx');
    expect(err.location).toBe('snippets/broken.jsx:3:9');
    expect(err.message).toBe('Could not parse: Unexpected token');
  });
});

describe('JSX grammar in pages', () => {
  it('renders a Card whose icon attribute is itself JSX', () => {
    const page = render('<Card title="Custom" icon={<svg viewBox="0 0 24 24"><path d="M1 1h22v22H1z" /></svg>}>\n  Body\n</Card>\n');
    expect(page.html).toMatch(/c-card__icon.*<svg[^>]*viewBox="0 0 24 24".*<path d="M1 1h22v22H1z"/s);
    expect(page.html).toContain('Body');
  });

  it('keeps an inline element inside its paragraph', () => {
    const page = render(
      '<Tip>\n  Read the <Link href="/guides/intro">intro guide</Link> first, then <a href="/guides/setup">set up</a> or <Mystery>ask</Mystery>.\n</Tip>\n\nSee <Tooltip tip="hi">this</Tooltip> too.\n',
    );
    // <Link> (Next's, which Mintlify pages use unimported) is a link like a Markdown one.
    expect(page.html).toMatch(
      /<p>Read the <a href="\/guides\/intro\/">intro guide<\/a> first, then <a href="\/guides\/setup\/">set up<\/a> or <span class="c-unknown" data-component="Mystery">ask<\/span>\.<\/p>/,
    );
    expect(page.html).toMatch(/<p>See .*this.* too\.<\/p>/);
    expect(page.warnings).toEqual([{ code: 'unknown-component', message: expect.stringContaining('<Mystery>'), file: 'page.mdx', line: 2 }]);
  });

  it('reads attribute expressions with comments, template literals, arrows with bodies and spreads', () => {
    const page = render(
      '<Card\n  {/* a comment between attributes */}\n  title={`Templated`}\n  // Mintlify accepts a line comment here too\n  onClick={() => { return 1; }}\n  {...{ a: 1 }}\n>\n  Text\n</Card>\n',
    );
    expect(page.html).toMatch(/c-card.*Templated.*Text/s);
  });

  it('reads import/export blocks whose objects hold blank lines', () => {
    const page = render('export const meta = {\n  name: "Blank",\n\n  size: 3,\n};\n\n{meta.name} {meta.size}\n');
    expect(page.html).toContain('<p>Blank 3</p>');
  });

  it('fails on an expression that is not JavaScript with file:line:column', () => {
    const err = failure('---\ntitle: T\n---\n\nIntro.\n\nTotal: {1 +}\n');
    expect(err.location).toBe('page.mdx:7:12');
    expect(err.message).toBe('Could not parse: Unexpected token');
  });

  it('fails on a component tag with a broken attribute expression with file:line:column', () => {
    const err = failure('Intro\n\n<Card title={"open} />\n');
    expect(err.file).toBe('page.mdx');
    expect(err.line).toBe(3);
    expect(err.column).toBeGreaterThan(1);
    expect(err.message).toMatch(/^Could not parse: Unterminated string constant/);
  });

  it('fails on an export block that is not JavaScript with file:line:column', () => {
    const err = failure('export const x = {\n  a: 1\n  b: 2\n};\n\nText\n');
    expect(err.location).toBe('page.mdx:3:3');
    expect(err.message).toBe('Could not parse: Unexpected token');
  });

  it('leaves text with unbalanced braces and HTML written the HTML way alone', () => {
    const page = render('A { brace that never closes, and a < b.\n\n<a href=/guides/intro>unquoted</a>\n');
    expect(page.html).toContain('A { brace that never closes, and a &lt; b.');
    expect(page.html).toContain('<a href="/guides/intro/">unquoted</a>');
  });
});
