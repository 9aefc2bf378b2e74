import { beforeAll, describe, expect, it } from 'vitest';
import { count, docsJson, exportFiles, type Exported } from './export-helpers.js';

const PAGE = `---
title: Components
---

<Color variant="compact">
  <Color.Item name="blue-500" value="#3B82F6" />
  <Color.Item name="theme" value={{ light: "#FFFFFF", dark: "#000000" }} />
  <Color.Item name="evil" value="red;background:url(https://x)" />
</Color>

<Color variant="table">
  <Color.Row title="Primary">
    <Color.Item name="primary-500" value="rgb(51, 255, 87)" />
  </Color.Row>
</Color>

<Tile href="/components" title="Tile title" description="Short description">
  <img src="/images/tile.svg" alt="Tile preview" />
</Tile>

<GitHub.Repo repo="mintlify/docs" />

<GitHub.Repo repo="https://github.com/acme/widgets.git" variant="flat" />

<FileTree>

- docs/
  - index.mdx
  - \`guides\`/
    - **configuration.mdx**
- docs.config.ts
- empty/

</FileTree>

<Tree>
  <Tree.Folder name="app" defaultOpen>
    <Tree.File name="page.tsx" highlight />
  </Tree.Folder>
  <Tree.Folder name="static" openable={false}>
    <Tree.File name="a.txt" />
  </Tree.Folder>
</Tree>
`;

let site: Exported;
let html: string;

beforeAll(async () => {
  site = await exportFiles({
    'docs.json': docsJson(['components'], { navbar: { links: [{ type: 'discord', href: 'https://discord.gg/acme' }], primary: { type: 'github', href: 'https://github.com/acme/widgets' } } }),
    'components.mdx': PAGE,
    'images/tile.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>',
  });
  html = site.page('/components');
}, 60_000);

describe('Color', () => {
  it('shows swatches with name and copyable value, theme-aware pairs, and table rows', () => {
    expect(html).toContain('<div class="c-color c-color--compact"><div class="c-color__items"><div class="c-color__item" data-code-block>');
    expect(html).toContain('style="--swatch-light:#3B82F6;--swatch-dark:#3B82F6"');
    expect(html).toContain('<span class="c-color__name">blue-500</span><code class="c-color__value" data-copy-source>#3B82F6</code>');
    expect(html).toContain('style="--swatch-light:#FFFFFF;--swatch-dark:#000000"');
    expect(html).toContain('data-copy-source>#FFFFFF / #000000</code>');
    expect(html).toContain('<div class="c-color c-color--table"><div class="c-color__row"><p class="c-color__row-title">Primary</p>');
    expect(html).toContain('--swatch-light:rgb(51, 255, 87)');
  });

  it('never puts a value that is not plainly a colour into a style attribute', () => {
    expect(html).not.toMatch(/style="[^"]*url\(/);
    expect(html).toContain('<code class="c-color__value" data-copy-source>red;background:url(https://x)</code>');
  });
});

describe('Tile and GitHub.Repo', () => {
  it('renders a Tile as a preview with a linked title and description', () => {
    expect(html).toMatch(/<div class="c-tile c-tile--link"><div class="c-tile__preview"><img src="\/_assets\/images\/tile\.[0-9a-f]+\.svg" alt="Tile preview"/);
    expect(html).toContain('<p class="c-tile__title"><a class="c-tile__link" href="/components/">Tile title</a></p><p class="c-tile__description">Short description</p>');
  });

  it('renders GitHub.Repo as an offline card linking to the repository', () => {
    expect(html).toContain('<div class="c-github c-github--inset">');
    expect(html).toContain('<a class="c-github__link" href="https://github.com/mintlify/docs" rel="noopener noreferrer"><span class="c-github__owner">mintlify/</span>docs</a>');
    expect(html).toContain('<div class="c-github c-github--flat">');
    expect(html).toContain('href="https://github.com/acme/widgets"');
    expect(count(html, 'c-github__icon"')).toBe(2);
    expect(site.result.warnings.filter((w) => w.code === 'unknown-component')).toEqual([]);
  });
});

describe('FileTree and Tree', () => {
  it('reads the Markdown list syntax: trailing slash or nested items make a folder, formatting dropped, filled folders open', () => {
    const tree = /<div class="c-tree">(.*?)<\/div>/s.exec(html)?.[1] ?? '';
    expect(tree).toMatch(/<li class="c-tree__folder"><details open><summary><svg[^]*?<\/svg>docs<\/summary>/);
    expect(tree).toMatch(/<details open><summary><svg[^]*?<\/svg>guides<\/summary><ul class="c-tree__list"><li class="c-tree__file"><svg[^]*?<\/svg>configuration\.mdx<\/li>/);
    expect(tree).toMatch(/<li class="c-tree__file"><svg[^]*?<\/svg>docs\.config\.ts<\/li>/);
    expect(tree).toMatch(/<li class="c-tree__folder"><details><summary><svg[^]*?<\/svg>empty<\/summary>/);
    expect(tree).not.toContain('<p>');
  });

  it('supports highlight and openable={false} in the component syntax', () => {
    expect(html).toMatch(/<li class="c-tree__file c-tree__item--highlight"><svg[^]*?<\/svg>page\.tsx<\/li>/);
    expect(html).toMatch(/<li class="c-tree__folder c-tree__folder--static"><span class="c-tree__label"><svg[^]*?<\/svg>static<\/span>/);
  });
});

describe('navbar links of type github and discord', () => {
  it('shows the GitHub icon and owner/name instead of the raw URL, and Discord by name', () => {
    const primary = /<a class="button-primary" href="https:\/\/github\.com\/acme\/widgets"[^>]*>(.*?)<\/a>/s.exec(html)?.[1] ?? '';
    expect(primary).toContain('<svg');
    expect(primary).toContain('acme/widgets');
    expect(primary).not.toContain('https://github.com');
    expect(html).toMatch(/<a href="https:\/\/discord\.gg\/acme"[^>]*><svg[^>]*>.*?<\/svg>Discord<\/a>/s);
  });
});
