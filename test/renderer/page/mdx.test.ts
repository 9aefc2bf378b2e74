import { describe, expect, it } from 'vitest';
import { prepareSandbox } from '../../../renderer/islands/sandbox.js';
import { codes, count, render, renderError } from './helpers.js';

describe('MDX structure', () => {
  it('fails on an unclosed component with the line of its opening tag', () => {
    const err = renderError('# Title\n\nIntro\n\n<Note>\nnever closed\n', { file: 'guides/unclosed.mdx' });
    expect(err.file).toBe('guides/unclosed.mdx');
    expect(err.line).toBe(5);
    expect(err.message).toMatch(/Unclosed <Note>/);
  });

  it('counts lines after the frontmatter too', () => {
    const err = renderError('---\ntitle: T\n---\n\n<CardGroup>\n  <Card title="a">\n</CardGroup>\n');
    expect(err.line).toBe(6);
    expect(err.message).toMatch(/Unclosed <Card>/);
  });

  it('fails on a closing tag that matches nothing', () => {
    const err = renderError('text\n\n</Tip>\n');
    expect(err.line).toBe(3);
    expect(err.message).toMatch(/<\/Tip>/);
  });

  it('renders components nested 100 deep and fails at 101 with the line of the opening tag', () => {
    const nested = (n: number): string => '<Note>\n'.repeat(n) + 'core\n' + '</Note>\n'.repeat(n);
    const page = render(nested(100));
    expect(page.html.match(/c-callout--note/g)).toHaveLength(100);
    expect(page.html).toContain('core');
    // Rendering cost grows with the square of the depth: 1,000 levels used to exhaust a worker's heap.
    const err = renderError(nested(1000), { file: 'guides/deep.mdx' });
    expect(err.file).toBe('guides/deep.mdx');
    expect(err.line).toBe(101);
    expect(err.message).toBe('<Note> is nested more than 100 elements deep; the page is not rendered');
  });

  it('fails on Markdown nested past the stack with a message for the author, not for marked', () => {
    const err = renderError('> '.repeat(20_000) + 'deep quote\n', { file: 'guides/quotes.mdx' });
    expect(err.file).toBe('guides/quotes.mdx');
    expect(err.message).toMatch(/^Could not render the page: its Markdown is nested too deeply to render \(Maximum call stack size exceeded\)/);
    expect(err.message).not.toMatch(/markedjs/);
  });

  it('treats code fences and inline code as opaque', () => {
    const page = render('```jsx\n<Note>not a component {x}\n```\n\nUse `<Tip>` and `{braces}` here.\n\n~~~\n<Open>\n~~~\n');
    expect(page.warnings).toEqual([]);
    expect(page.html).not.toContain('c-callout');
    expect(page.html).toMatch(/<code class="hljs language-jsx">.*Note.*not a component \{x\}/s);
    expect(page.html).toContain('<code>&lt;Tip&gt;</code>');
    expect(page.html).toContain('<code>{braces}</code>');
  });

  it('reads a line whose backtick run closes on the same line as inline code, not a fence, inside components too', () => {
    // CommonMark: a backtick fence's info string holds no backtick.
    const page = render('<Update label="1.0" description="2025-01-01">\n\n- ```custom_id``` is kept.\n\n</Update>\n\n```custom_id``` at a line start.\n\n<Note>\n1. ```a``` one\n2. `b` two\n</Note>\n');
    expect(page.warnings).toEqual([]);
    expect(page.html).toMatch(/<li><code>custom_id<\/code> is kept\.<\/li>/);
    expect(page.html).toContain('<p><code>custom_id</code> at a line start.</p>');
    expect(page.html).toMatch(/c-callout--note[\s\S]*<li><code>a<\/code> one<\/li>/);
    // A tilde fence may have backticks in its info string; it stays a fence, its tags code.
    const tilde = render('<Note>\n~~~ a`b\n<Tab>\n~~~\n</Note>\n');
    expect(tilde.html).toContain('&lt;Tab&gt;');
    // The {{variable}} pass reads the same fences: an unknown variable after such a line is still reported.
    const vars = render('- ```custom_id``` is kept.\n\nSee {{missing}}.\n');
    expect(vars.warnings).toEqual([expect.objectContaining({ code: 'unknown-variable', line: 3 })]);
  });

  it('interleaves markdown and components both ways', () => {
    const page = render(
      [
        '1. First step',
        '   <Note>',
        '   Inside a **list** item.',
        '   </Note>',
        '2. Second step with <Badge color="green">new</Badge> inline',
        '',
        '<Tip>',
        '## Heading in a tip',
        '',
        '- a',
        '- b',
        '</Tip>',
      ].join('\n'),
    );
    expect(page.html).toMatch(/<li><p>First step<\/p>\s*<div class="c-callout c-callout--note"[^>]*>.*<p>Inside a <strong>list<\/strong> item.<\/p>/s);
    expect(page.html).toMatch(/Second step with <span class="c-badge c-badge--green">new<\/span> inline/);
    expect(page.html).toMatch(/c-callout--tip.*<h2 id="heading-in-a-tip"[^>]*>.*<ul>\s*<li>a<\/li>/s);
  });

  it('removes JSX comments and import/export lines; computes code expressions in the sandbox, shows those that fail as written', () => {
    prepareSandbox();
    const page = render("export const name = 'Ada';\n\nHi {name}! {/* a comment */}Sum: {1 + 2}. Escaped \\{literal\\}. Reader: {reader.name}.");
    expect(page.html).not.toContain('export');
    expect(page.html).not.toContain('comment');
    expect(page.html).toContain('Hi Ada!');
    expect(page.html).toMatch(/Sum: <span class="c-island"[^>]*>3<\/span>\./);
    expect(page.html).toContain('<code class="c-expression">{reader.name}</code>');
    expect(page.html).toContain('{literal}');
    expect(codes(page)).toEqual(['unsupported-expression']);
  });

  it('never executes expressions', () => {
    const page = render("{globalThis.process.exit(1)}\n\n{(() => { throw new Error('ran') })()}\n");
    expect(count(page.html, 'c-expression')).toBe(2);
  });

  it('reads attribute values: strings, numbers, booleans, arrays, objects, bare attributes', () => {
    const page = render('<Update label="v1" description={"desc"} tags={["a", \'b\']}>\nBody\n</Update>\n\n<CardGroup cols={3}>\n<Card title="X" horizontal />\n</CardGroup>');
    expect(page.html).toContain('<ul class="c-update__tags"><li>a</li><li>b</li></ul>');
    expect(page.html).toContain('--cols:3');
    expect(page.html).toContain('c-card--horizontal');
  });

  it('reports an unknown component with file and line, and still renders its children', () => {
    const page = render('Intro\n\n<Fancy kind="x">\nSome **content**\n</Fancy>\n', { file: 'guides/custom.mdx' });
    expect(page.warnings).toEqual([
      expect.objectContaining({ code: 'unknown-component', file: 'guides/custom.mdx', line: 3 }),
    ]);
    expect(page.html).toMatch(/<div class="c-unknown" data-component="Fancy"><p>Some <strong>content<\/strong><\/p>/);
  });

  it('keeps lowercase words in angle brackets that are not HTML as text', () => {
    const page = render('Replace <your-key> and <name> in the URL.');
    expect(page.html).toContain('Replace &lt;your-key&gt; and &lt;name&gt; in the URL.');
  });

  it('substitutes {{variables}} and reports unknown ones outside code only', () => {
    const page = render('Welcome to {{product}} {{ version }}. {{missing}}\n\n```yaml\ntoken: ${{ secrets.TOKEN }}\n```\n');
    expect(page.html).toContain('Welcome to Acme 3.1.');
    expect(page.html).toContain('{{missing}}');
    expect(page.warnings).toEqual([expect.objectContaining({ code: 'unknown-variable', line: 1 })]);
  });

  it('is deterministic: the same input gives the same output', () => {
    const source = '---\ntitle: T\n---\n<Tabs>\n<Tab title="A">\nx\n</Tab>\n<Tab title="B">\ny\n</Tab>\n</Tabs>\n\n## H\n\n<Tooltip tip="t">w</Tooltip>\n';
    const a = render(source);
    const b = render(source);
    expect(b).toEqual(a);
    expect(JSON.stringify(b)).toBe(JSON.stringify(a));
  });
});

describe('a raw <p> whose text sits on lines of its own', () => {
  it('keeps the text inside the author’s paragraph, where a browser would otherwise split it off unstyled', () => {
    const page = render('<p className="mt-4 text-lg text-gray-500">\n  Everything you need to **build** and [ship](/guides).\n</p>\n');
    expect(page.html).toMatch(/<p class="mt-4 text-lg text-gray-500">Everything you need to <strong>build<\/strong> and <a href="\/guides\/?">ship<\/a>\.<\/p>/);
    expect(page.html).not.toMatch(/<p[^>]*>\s*<p>/);
  });

  it('leaves paragraphs that are not alone as MDX reads them, and inline text as it was', () => {
    expect(render('<p className="x">\n  One.\n\n  Two.\n</p>\n').html).toContain('<p class="x"><p>One.</p>\n<p>Two.</p>');
    expect(render('<p className="x">Inline *text*</p>\n').html).toContain('<p class="x">Inline <em>text</em></p>');
  });
});
