import { describe, expect, it } from 'vitest';
import { codes, count, render } from './helpers.js';

const html = (source: string): string => render(source).html;

describe('callouts', () => {
  it.each(['Note', 'Tip', 'Info', 'Warning', 'Check', 'Danger'])('%s renders a labelled note with an icon', (name) => {
    const out = html(`<${name}>\nMind **this**.\n</${name}>`);
    expect(out).toMatch(new RegExp(`^<div class="c-callout c-callout--${name.toLowerCase()}" role="note" aria-label="${name}">`));
    expect(out).toMatch(/<span class="c-callout__icon"><svg [^>]*aria-hidden="true"/);
    expect(out).toContain('<div class="c-callout__content"><p>Mind <strong>this</strong>.</p>');
  });

  it('Callout takes an icon and a colour, and refuses a colour that is not one', () => {
    const out = html('<Callout icon="key" color="#FFC107">Keys</Callout>');
    expect(out).toContain('c-callout--custom');
    expect(out).toContain('style="--callout-color:#FFC107"');
    expect(out).toContain('icon-key');
    expect(html('<Callout color="red;background:url(x)">x</Callout>')).not.toContain('style=');
  });
});

describe('cards', () => {
  it('Card with title, icon, link and cta; the title is the (stretched) link', () => {
    const out = html('<Card title="Quickstart" icon="rocket" href="/guides/intro" cta="Start">\nGet going.\n</Card>');
    expect(out).toMatch(/^<div class="c-card c-card--link">/);
    expect(out).toContain('<span class="c-card__icon"><svg');
    expect(out).toContain('<p class="c-card__title"><a class="c-card__link" href="/guides/intro/">Quickstart</a></p>');
    expect(out).toContain('<div class="c-card__content"><p>Get going.</p>');
    expect(out).toContain('<span class="c-card__cta" aria-hidden="true">Start</span>');
  });

  it('Card image goes through the asset map; horizontal variant', () => {
    const out = html('<Card title="A" img="/images/logo.png" horizontal>x</Card>');
    expect(out).toContain('<img class="c-card__img" src="/_assets/logo.1a2b3c4d.png"');
    expect(out).toContain('c-card--horizontal');
  });

  it('CardGroup and Columns set the column count', () => {
    const out = html('<CardGroup cols={3}>\n<Card title="a" />\n<Card title="b" />\n</CardGroup>\n\n<Columns cols={2}>\n<Card title="c" />\n</Columns>');
    expect(out).toContain('<div class="c-card-group c-card-group--cards" style="--cols:3">');
    expect(out).toContain('<div class="c-card-group c-columns" style="--cols:2">');
    expect(count(out, 'class="c-card"')).toBe(3);
    expect(out).not.toContain('<p><div');
  });
});

describe('steps', () => {
  it('Steps is an ordered list of numbered steps with titles', () => {
    const out = html('<Steps>\n  <Step title="Install">\n    Run it.\n  </Step>\n  <Step title="Use" stepNumber={5}>\n    Done.\n  </Step>\n</Steps>');
    expect(out).toMatch(/^<ol class="c-steps"><li class="c-step" id="install"><span class="c-step__marker" aria-hidden="true">1<\/span>/);
    expect(out).toContain('<p class="c-step__title"><a class="c-step__anchor" href="#install" aria-hidden="true" tabindex="-1"></a>Install</p><div class="c-step__content"><p>Run it.</p>');
    expect(out).toContain('aria-hidden="true">5</span>');
    expect(count(out, '<li class="c-step"')).toBe(2);
  });
});

describe('tabs and code groups', () => {
  it('Tabs: ARIA tablist, tabs wired to panels, only the first panel visible', () => {
    const out = html('<Tabs>\n<Tab title="npm">\nnpm text\n</Tab>\n<Tab title="yarn" icon="yarn">\nyarn text\n</Tab>\n</Tabs>');
    expect(out).toContain('<div class="c-tabs c-tabs--content" data-tabs>');
    expect(out).toContain('role="tablist"');
    expect(out).toMatch(/<button type="button" role="tab" class="c-tabs__tab" id="(tabs-\d+)-tab-0" aria-controls="\1-panel-0" aria-selected="true" tabindex="0">npm<\/button>/);
    expect(out).toMatch(/id="tabs-\d+-tab-1" aria-controls="tabs-\d+-panel-1" aria-selected="false" tabindex="-1"><svg/);
    expect(out).toMatch(/role="tabpanel" id="tabs-\d+-panel-0" aria-labelledby="tabs-\d+-tab-0" tabindex="0"><p>npm text<\/p>/);
    expect(out).toMatch(/role="tabpanel" id="tabs-\d+-panel-1" aria-labelledby="tabs-\d+-tab-1" tabindex="0" hidden><p>yarn text<\/p>/);
  });

  it('CodeGroup: each fence title becomes a tab, one copy button for the group', () => {
    const out = html('<CodeGroup>\n```bash npm\nnpm i acme\n```\n\n```bash yarn\nyarn add acme\n```\n</CodeGroup>');
    expect(out).toContain('c-code-group');
    expect(out).toMatch(/role="tab"[^>]*>npm<\/button>.*role="tab"[^>]*>yarn<\/button>/s);
    expect(count(out, 'data-copy-code')).toBe(1);
    expect(count(out, 'role="tabpanel"')).toBe(2);
    expect(out).toMatch(/hidden><pre class="c-code__pre" tabindex="0"><code class="hljs language-bash">yarn add acme/);
  });

  it('RequestExample / ResponseExample render as labelled example panels', () => {
    const out = html('<RequestExample>\n```bash cURL\ncurl /plants\n```\n</RequestExample>\n\n<ResponseExample>\n```json 200\n{"id": 1}\n```\n</ResponseExample>');
    expect(out).toContain('<aside class="c-example c-example--request" aria-label="Request example">');
    expect(out).toContain('<aside class="c-example c-example--response" aria-label="Response example">');
    expect(out).toContain('<span class="c-code__title">cURL</span>');
    expect(out).toContain('hljs-attr');
  });

  it('View renders a labelled block per view (the client script groups siblings)', () => {
    const out = html('<View title="Python">\npy\n</View>\n\n<View title="JavaScript">\njs\n</View>');
    expect(out).toContain('<section class="c-view" data-view="Python" aria-label="Python"><p class="c-view__label">Python</p><p>py</p>');
    expect(count(out, 'class="c-view"')).toBe(2);
  });
});

describe('disclosure', () => {
  it('Accordion uses details/summary, with description, icon and defaultOpen', () => {
    const out = html('<AccordionGroup>\n<Accordion title="FAQ" description="short" icon="question" defaultOpen>\nAnswer.\n</Accordion>\n<Accordion title="Two">\nB\n</Accordion>\n</AccordionGroup>');
    expect(out).toMatch(/^<div class="c-accordion-group"><details class="c-accordion" id="faq" open><summary class="c-accordion__summary"><svg/);
    expect(out).toContain('<span class="c-accordion__title">FAQ</span><span class="c-accordion__description">short</span></summary>');
    expect(out).toContain('<div class="c-accordion__body"><p>Answer.</p>');
    expect(out).toContain('<details class="c-accordion" id="two"><summary');
  });

  it('Expandable is a details block with its title', () => {
    const out = html('<Expandable title="child attributes">\n<ResponseField name="id" type="string">The id</ResponseField>\n</Expandable>');
    expect(out).toMatch(/^<details class="c-expandable"><summary class="c-expandable__summary"><span class="c-expandable__verb" data-hide="Hide">Show<\/span><span class="c-expandable__title">child attributes<\/span><\/summary>/);
    expect(out).toContain('c-field--response');
  });
});

describe('API fields', () => {
  it('ParamField shows name, type, location, required, deprecated and default', () => {
    const out = html('<ParamField query="limit" type="integer" default={10} required deprecated>\nHow many.\n</ParamField>');
    expect(out).toContain('<code class="c-field__name">limit</code>');
    expect(out).toContain('<span class="c-field__type">integer</span>');
    expect(out).toContain('<span class="c-field__location">query</span>');
    expect(out).toContain('c-field__badge--required">required</span>');
    expect(out).toContain('c-field__badge--deprecated">deprecated</span>');
    expect(out).toContain('default: <code>10</code>');
    expect(out).toContain('<div class="c-field__body"><p>How many.</p>');
    for (const loc of ['path', 'body', 'header']) expect(html(`<ParamField ${loc}="x" type="string" />`)).toContain(`c-field__location">${loc}<`);
  });

  it('ResponseField shows name, type and required', () => {
    const out = html('<ResponseField name="data" type="object" required>\nPayload\n</ResponseField>');
    expect(out).toMatch(/^<div class="c-field c-field--response" id="param-data"><div class="c-field__head"><a class="c-field__anchor" href="#param-data" aria-hidden="true" tabindex="-1"><\/a><code class="c-field__name">data<\/code><span class="c-field__type">object<\/span><span class="c-field__badge c-field__badge--required">required<\/span>/);
  });
});

describe('media and inline components', () => {
  it('Frame wraps content in a figure with a caption', () => {
    const out = html('<Frame caption="The dashboard">\n![Dash](/images/logo.png)\n</Frame>');
    expect(out).toMatch(/^<figure class="c-frame"><div class="c-frame__content"><p><img src="\/_assets\/logo.1a2b3c4d.png" alt="Dash"/);
    expect(out).toContain('<figcaption class="c-frame__caption">The dashboard</figcaption></figure>');
  });

  it('Tooltip is keyboard reachable and described by its tip', () => {
    const out = html('An <Tooltip tip="Application Programming Interface">API</Tooltip> call.');
    expect(out).toMatch(/<span class="c-tooltip"><span class="c-tooltip__trigger" tabindex="0" aria-describedby="(tip-\d+)">API<\/span><span class="c-tooltip__bubble" role="tooltip" id="\1">Application Programming Interface<\/span><\/span>/);
  });

  it('Badge and Icon', () => {
    expect(html('<Badge color="blue" shape="pill">Beta</Badge>')).toContain('<span class="c-badge c-badge--blue c-badge--pill">Beta</span>');
    const icon = html('<Icon icon="github" size={24} color="#333" />');
    expect(icon).toContain('<span class="c-icon-inline" style="--icon-size:24px;color:#333"><svg');
    expect(icon).toContain('icon-github');
    const unknown = render('<Icon icon="no-such-icon-here" />');
    expect(unknown.html).toBe('');
    expect(codes(unknown)).toEqual(['unknown-icon']);
  });

  it('Update shows label, description, tags, and puts the label in the toc', () => {
    const page = render('<Update label="2024-10-12" description="v1.2" tags={["Feature"]}>\nNew things.\n</Update>');
    expect(page.html).toMatch(/^<section class="c-update" id="2024-10-12"><div class="c-update__meta"><p class="c-update__label">2024-10-12<\/p><p class="c-update__description">v1.2<\/p>/);
    expect(page.toc).toEqual([{ id: '2024-10-12', text: '2024-10-12', depth: 2 }]);
  });

  it('Tree renders folders (details) and files', () => {
    const out = html('<Tree>\n  <Tree.Folder name="app" defaultOpen>\n    <Tree.File name="page.tsx" />\n  </Tree.Folder>\n  <Tree.File name="package.json" />\n</Tree>');
    expect(out).toMatch(/^<div class="c-tree"><ul class="c-tree__list"><li class="c-tree__folder"><details open><summary><svg[^]*?<\/svg>app<\/summary><ul class="c-tree__list"><li class="c-tree__file"><svg[^]*?<\/svg>page.tsx<\/li><\/ul><\/details><\/li><li class="c-tree__file">/);
  });

  it('Visibility keeps content for humans and drops it for agents', () => {
    const out = html('<Visibility for="humans">\nFor people.\n</Visibility>\n\n<Visibility for="agents">\nFor bots.\n</Visibility>');
    expect(out).toContain('For people.');
    expect(out).not.toContain('For bots.');
  });

  it('Panel and Prompt', () => {
    expect(html('<Panel>\nSide note\n</Panel>')).toContain('<aside class="c-panel"><p>Side note</p>');
    const prompt = html('<Prompt description="Ask the agent">\nWrite a test.\n</Prompt>');
    expect(prompt).toContain('data-copy-code');
    expect(prompt).toContain('<div class="c-prompt__body" data-copy-source><p>Write a test.</p>');
  });

  it('Latex and $…$ math are rendered by KaTeX at build time (HTML and MathML)', () => {
    const page = render('Inline $E = mc^2$ and\n\n$$\n\\int_0^1 x\\,dx\n$$\n\n<Latex>a^2 + b^2</Latex>\n\nPrices like $5 and $10 stay text.');
    expect(page.usesMath).toBe(true);
    expect(count(page.html, 'class="katex"')).toBeGreaterThanOrEqual(2);
    expect(page.html).toContain('<math xmlns="http://www.w3.org/1998/Math/MathML">');
    expect(page.html).toContain('class="katex-display"');
    expect(page.html).toContain('Prices like $5 and $10 stay text.');
    expect(render('No math, $5.').usesMath).toBe(false);
    const braces = render('Euler: $e^{i\\pi} + 1 = 0$ and\n\n$$\n\\frac{a}{b}\n$$');
    expect(braces.warnings).toEqual([]);
    expect(braces.html).toContain('<annotation encoding="application/x-tex">e^{i\\pi} + 1 = 0</annotation>');
    expect(braces.html).toContain('\\frac{a}{b}');
  });

  it('mermaid fences become <pre class="mermaid"> with escaped source', () => {
    const page = render('```mermaid\ngraph TD\n  A-->B<script>\n```');
    expect(page.usesMermaid).toBe(true);
    expect(page.html).toBe('<pre class="mermaid c-mermaid">graph TD\n  A--&gt;B&lt;script&gt;</pre>');
    expect(render('text').usesMermaid).toBe(false);
  });
});

describe('JSX-valued attributes', () => {
  it('renders icon={<svg>…</svg>} as a sanitised inline icon', () => {
    const out = html('<Card title="Custom" icon={<svg viewBox="0 0 10 10" onload="alert(1)"><path d="M0 0h10"\n  fill="#333" /></svg>}>\nx\n</Card>');
    expect(out).toMatch(/<span class="c-card__icon"><span class="c-icon-jsx"><svg viewBox="0 0 10 10"><path d="M0 0h10" fill="#333"/);
    expect(out).not.toContain('onload');
  });
});
