/**
 * Outside images in small boxes (issue 39 class 7): the placeholder's notice does not fit a 40 px
 * icon box (it wrapped one letter a line and spilled over the next section). Below 96 px in either
 * dimension the placeholder is the image icon alone at the box's size, the notice its accessible
 * name and tooltip; on pages and in exported components' pre-render alike.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { docsJson, exportFiles, type Exported } from './export-helpers.js';

const PAGE = `---
title: Logos
---

<img src="https://cdn.acme.test/attr.png" alt="Acme" width="40" height="40" />

<img src="https://cdn.acme.test/tw.png" alt="Tailwind box" className="w-10 h-10 rounded" />

<img src="https://cdn.acme.test/styled.png" style={{ width: '32px' }} />

<img src="https://cdn.acme.test/wide.png" alt="Wide" width="400" />

<Card title="Url icon" icon="https://cdn.acme.test/icon.svg">An icon hosted elsewhere.</Card>

<Card title="Jsx icon" icon={<img src="https://cdn.acme.test/jsx.png" alt="Jsx" />}>An image as the icon.</Card>

import { Logo } from '/snippets/logo.jsx';
import { Partner } from '/snippets/partner.jsx';

<Logo />

<Partner name="component" />
`;

let site: Exported;
let html: string;

beforeAll(async () => {
  site = await exportFiles({
    'docs.json': docsJson(['logos']),
    'logos.mdx': PAGE,
    // Written out: the page renders it. Computed: an island, its stand-in made by the component runtime.
    'snippets/logo.jsx': 'export const Logo = () => <div className="flex"><img src="https://cdn.acme.test/static.png" alt="Static" className="h-10 w-10" /></div>;\n',
    'snippets/partner.jsx': 'export const Partner = ({ name }) => {\n  const src = `https://cdn.acme.test/${name}.png`;\n  return <div className="flex"><img src={src} alt="Partner" className="h-10 w-10" /></div>;\n};\n',
  });
  html = site.page('/logos');
}, 60_000);

describe('outside images in small boxes', () => {
  it('shows the icon alone, at the size the attributes, style or Tailwind classes give, with the notice as its name and tooltip', () => {
    const tags = [...html.matchAll(/<span (?=[^>]*c-outside--small)[^>]*>/g)].map((m) => m[0]);
    const byLabel = (label: string): string => tags.find((t) => t.includes(`aria-label="${label}.`)) ?? '';
    expect(byLabel('Acme')).toContain('style="width:40px;height:40px"');
    expect(byLabel('Acme')).toContain('role="img"');
    expect(byLabel('Acme')).toContain('title="Acme. Hosted at cdn.acme.test, which this network may not reach."');
    expect(byLabel('Tailwind box')).toContain('style="width:40px;height:40px"');
    // One side given: square.
    expect(byLabel('Image')).toContain('style="width:32px;height:32px"');
    // No visible notice in the small ones: only the wide image shows it.
    expect(html.match(/<span class="c-outside__note">/g) ?? []).toHaveLength(1);
    expect(html).toContain('<span class="c-outside__title">Wide</span>');
    expect(html).toMatch(/<span class="c-outside c-outside--image">[^]*?<span class="c-outside__title">Wide<\/span><span class="c-outside__note">Hosted at cdn\.acme\.test/);
  });

  it("shows the icon-only stand-in in a component's icon box: an icon URL on another host, an outside image as the icon", () => {
    const tags = [...html.matchAll(/<span (?=[^>]*c-outside--small)[^>]*>/g)].map((m) => m[0]);
    const url = tags.find((t) => t.includes('aria-label="Icon. Hosted at cdn.acme.test'));
    expect(url).toBeDefined();
    // In the icon's own box (its class sizes it), with no size of its own.
    expect(url).toMatch(/class="c-outside c-outside--image c-outside--small [^"]+"/);
    expect(url).not.toContain('style=');
    expect(tags.find((t) => t.includes('aria-label="Jsx. Hosted at cdn.acme.test'))).toBeDefined();
    expect(html).not.toContain('src="https://cdn.acme.test/icon.svg"');
    expect(site.result.warnings.filter((w) => w.code === 'external-image').map((w) => w.message)).toEqual(expect.arrayContaining([expect.stringContaining('icon.svg'), expect.stringContaining('jsx.png')]));
  });

  it("does the same for an exported component's image, rendered with the page or pre-rendered as an island", () => {
    expect(html).toMatch(/<span class="h-10 w-10"><span class="c-outside c-outside--image c-outside--small" role="img" aria-label="Static\. Hosted at cdn\.acme\.test[^"]*"[^>]*style="width:40px;height:40px">/);
    expect(html).toContain('data-island="snippets/partner.jsx#Partner"');
    const tag = /<span (?=[^>]*data-outside-host="cdn\.acme\.test")(?=[^>]*c-outside--small)[^>]*>/.exec(html)?.[0] ?? '';
    expect(tag).toContain('class="c-outside c-outside--image c-outside--small h-10 w-10"');
    expect(tag).toMatch(/aria-label="Partner\. Hosted at cdn\.acme\.test, which this network may not reach\."/);
    expect(tag).toMatch(/style="width:\s*40px;\s*height:\s*40px;?"/);
    expect(html).not.toMatch(/src="https:\/\//);
  });
});
