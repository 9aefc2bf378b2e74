import { describe, expect, it } from 'vitest';
import { count, render } from './helpers.js';

describe('markdown', () => {
  it('renders GFM footnotes as remark-gfm does: numbered in document order, notes at the end with links back', () => {
    const page = render(
      [
        '<Note>First mention[^b].</Note>',
        '',
        'A claim[^a], another[^b], the first again[^a]. Undefined: [^none].',
        '',
        '```md',
        'code [^a] stays',
        '```',
        '',
        '[^a]: Note A with a [link](/guides/intro).',
        '[^b]: Note B',
        '    on two lines.',
        '[^unused]: Never referenced.',
      ].join('\n'),
    );
    const refs = [...page.html.matchAll(/<a href="#user-content-fn-(\w+)" id="(user-content-fnref-[\w-]+)" data-footnote-ref aria-describedby="footnote-label">(\d)<\/a>/g)].map((m) => [m[1], m[2], m[3]]);
    expect(refs).toEqual([
      ['b', 'user-content-fnref-b', '1'],
      ['a', 'user-content-fnref-a', '2'],
      ['b', 'user-content-fnref-b-2', '1'],
      ['a', 'user-content-fnref-a-2', '2'],
    ]);
    expect(page.html).toContain('Undefined: [^none].');
    expect(page.html).toContain('code [^a] stays');
    const section = page.html.slice(page.html.indexOf('<section data-footnotes'));
    expect(section).toMatch(/^<section data-footnotes class="c-footnotes"><h2 class="c-sr-only" id="footnote-label">Footnotes<\/h2>\n<ol>\n<li id="user-content-fn-b"><p>Note B\non two lines\. <a href="#user-content-fnref-b" data-footnote-backref[^>]*>↩<\/a> <a href="#user-content-fnref-b-2"/);
    expect(section).toContain('<li id="user-content-fn-a"><p>Note A with a <a href="/guides/intro/">link</a>.');
    expect(section).not.toContain('Never referenced');
    expect(page.toc.map((t) => t.text)).not.toContain('Footnotes');
  });

  it('gives headings Mintlify-style ids, unique in document order (-2, -3), and honours {#custom-id}', () => {
    const page = render('## Getting Started\n\n## Getting Started\n\n## Getting Started\n\n### Café & `code`\n\n## Custom one {#my-anchor}\n\n#### Deep');
    expect(page.html).toContain('<h2 id="getting-started" class="c-heading"><a class="c-heading__anchor" href="#getting-started"');
    expect(page.html).toContain('<h2 id="getting-started-2"');
    expect(page.html).toContain('<h2 id="getting-started-3"');
    expect(page.html).toContain('<h3 id="café-&amp;-code"');
    expect(page.html).toMatch(/<h2 id="my-anchor"[^>]*>.*Custom one<\/h2>/);
    expect(page.html).not.toContain('{#my-anchor}');
    expect(page.html).toContain('<h4 id="deep"');
  });

  it('builds the toc from h2/h3 outside components, with plain text', () => {
    const page = render('# Title\n\n## One\n\n### One point *five*\n\n<Tip>\n## Hidden in a tip\n</Tip>\n\n## Two <Badge>new</Badge>\n\n#### Too deep');
    expect(page.toc).toEqual([
      { id: 'one', text: 'One', depth: 2 },
      { id: 'one-point-five', text: 'One point five', depth: 3 },
      { id: 'two-new', text: 'Two new', depth: 2 },
    ]);
    expect(page.html).toContain('id="hidden-in-a-tip"');
  });

  it('reads a fence indented four or more spaces (inside an indented <Tab>) as a fence, as MDX does', () => {
    const page = render(
      ['<Tabs>', '  <Tab title="React">', '', '    ```tsx', "    import { Broadcast } from '@livepeer/react';", '      const x = 1;', '    ```', '', 'Prose between.', '', '        ~~~', '        plain', '        ~~~', '  </Tab>', '</Tabs>'].join('\n'),
    );
    expect(count(page.html, '<pre')).toBe(2);
    expect(page.html).not.toContain('```');
    expect(page.html).not.toContain('~~~');
    expect(page.html).toMatch(/<code[^>]*>[^]*Broadcast[^]*<\/code>/);
    // Lines keep what they had beyond the fence's own indentation.
    expect(page.html).toMatch(/\n  <span[^>]*>const<\/span> x|\n  const x/);
    expect(page.html).toContain('<p>Prose between.</p>');
  });

  it('supports GFM tables and task lists', () => {
    const page = render('| a | b |\n|---|---|\n| 1 | 2 |\n\n- [x] done\n- [ ] todo');
    expect(page.html).toContain('<table>');
    expect(page.html).toContain('<td>1</td>');
    expect(count(page.html, 'type="checkbox"')).toBe(2);
  });

  it('highlights code at build time, with fence titles and marked lines', () => {
    const page = render('```python main.py {2}\nimport os\nprint("hi")\n```\n\n```\nplain <b>\n```');
    expect(page.html).toContain('<div class="c-code" data-code-block><div class="c-code__header"><span class="c-code__title">main.py</span>');
    expect(page.html).toContain('data-copy-code');
    expect(page.html).toContain('<code class="hljs language-python">');
    expect(page.html).toContain('<span class="hljs-keyword">import</span>');
    expect(page.html).toMatch(/<span class="c-code__line c-code__line--marked"><span class="hljs-built_in">print<\/span>/);
    expect(page.html).toContain('<code class="hljs">plain &lt;b&gt;</code>');
    // No client-side highlighter is needed: nothing asks for one.
    expect(page.html).not.toMatch(/<script|highlight\.js|hljs\.highlight/);
    expect(page.text).toContain('print("hi")');
  });

  it('shows the language when a fence has no title, and treats unknown languages as plain text', () => {
    const page = render('```bash\necho hi\n```\n\n```nosuchlang\nx < y\n```');
    expect(page.html).toContain('<span class="c-code__title c-code__title--lang">bash</span>');
    expect(page.html).toContain('x &lt; y');
  });

  it('gives a code group\'s text as its labels and its code as written, not split at highlighting tags', () => {
    const page = render('<CodeGroup>\n\n```javascript app.js\nconsole.log("hi");\n```\n\n```python\nprint(f"{name}")\n```\n\n</CodeGroup>\n\nAfter.');
    expect(page.html).toContain('<span class="hljs-string">&quot;hi&quot;</span>');
    expect(page.text).toBe('app.js python console.log("hi"); print(f"{name}") After.');
  });

  it('produces plain text for the search index without markup or math noise', () => {
    const page = render('# Title\n\nSome **bold** text &amp; more.\n\n<Note>\nA note.\n</Note>\n\nMath $x^2$ here.');
    expect(page.text).toBe('Title Some bold text & more. A note. Math x^2 here.');
  });
});
