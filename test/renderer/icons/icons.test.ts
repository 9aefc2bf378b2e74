import { describe, expect, it } from 'vitest';
import { renderIcon } from '../../../renderer/icons/index.js';
import { makeCtx, render } from '../page/helpers.js';

const lucide = makeCtx({}, { iconLibrary: 'lucide' });
const tabler = makeCtx({}, { iconLibrary: 'tabler' });

describe('icons.library', () => {
  it('draws Lucide icons as stroked inline SVG on a lucide site, Font Awesome on a default one', () => {
    const page = render('<Card title="Ship" icon="rocket">x</Card>', { ctx: lucide });
    expect(page.html).toMatch(/<svg xmlns="http:\/\/www.w3.org\/2000\/svg" viewBox="0 0 24 24" class="icon icon-rocket c-card__icon-svg" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true" focusable="false"><path d="/);
    expect(page.warnings).toEqual([]);
    const fa = render('<Card title="Ship" icon="rocket">x</Card>').html;
    expect(fa).toMatch(/viewBox="0 0 512 512" class="icon icon-rocket c-card__icon-svg" fill="currentColor"/);
  });

  it('knows Lucide names Font Awesome lacks, the brand icons Mintlify still shows, aliases and React names', () => {
    for (const name of ['sparkles', 'github', 'slack', 'square-dashed-text', 'house', 'home', 'triangle-alert', 'alert-triangle', 'ArrowRight', 'grid-3x3']) {
      expect(renderIcon(name, { library: 'lucide' }), name).toEqual({ svg: expect.stringContaining('<svg') });
    }
  });

  it('draws a Font Awesome name that Lucide lacks from Font Awesome, and still names it', () => {
    const page = render('<View title="JavaScript" icon="js">x</View>', { file: 'v.mdx', ctx: lucide });
    expect(page.html).toMatch(/<svg [^>]*class="icon icon-js c-view__icon" fill="currentColor"/);
    expect(page.warnings).toEqual([expect.objectContaining({ code: 'unknown-icon', file: 'v.mdx', line: 1, message: expect.stringContaining('the Font Awesome icon of that name is shown') })]);
  });

  it('draws Tabler icons, outline by default and filled on request', () => {
    const outline = render('<Icon icon="home" />', { ctx: tabler }).html;
    expect(outline).toContain('class="icon icon-home c-icon" fill="none" stroke="currentColor"');
    const filled = render('<Icon icon="home" iconType="filled" />', { ctx: tabler }).html;
    expect(filled).toContain('class="icon icon-home c-icon" fill="currentColor"');
    expect(renderIcon('home-filled', { library: 'tabler', className: 'c-icon' }).svg).toBe(filled.match(/<svg[^]*<\/svg>/)?.[0]);
    expect(renderIcon('brand-github', { library: 'tabler' }).svg).toContain('icon-brand-github');
  });

  it('gives a Font Awesome Pro-only name with no free likeness a same-size placeholder and a pro-icon warning with its line', () => {
    const page = render('# Title\n\n<Card title="A" icon="webhook">x</Card>', { file: 'guides/pro.mdx' });
    expect(page.html).toContain('class="icon icon-placeholder c-card__icon-svg" data-icon="webhook"');
    expect(page.html).toContain('viewBox="0 0 512 512"');
    expect(page.warnings).toEqual([
      expect.objectContaining({ code: 'pro-icon', file: 'guides/pro.mdx', line: 3, message: expect.stringContaining('"webhook" is a Font Awesome Pro icon') }),
    ]);
  });

  it('draws the free icon a Pro name is made from, and still warns which one it drew', () => {
    const page = render('# Title\n\n<Card title="A" icon="rocket-launch">x</Card>', { file: 'guides/pro.mdx' });
    const free = renderIcon('rocket', { className: 'c-card__icon-svg' }).svg as string;
    // The free rocket's own paths, marked as a stand-in and still naming what the page asked for.
    expect(page.html).toContain(free.slice(free.indexOf('>') + 1));
    expect(page.html).toMatch(/<svg data-icon="rocket-launch" [^>]*class="icon icon-rocket icon-substitute c-card__icon-svg"/);
    expect(page.warnings).toEqual([
      expect.objectContaining({ code: 'pro-icon', file: 'guides/pro.mdx', line: 3, message: expect.stringContaining('"rocket-launch" is a Font Awesome Pro icon; only the free set is bundled, so the free icon "rocket" is shown') }),
    ]);
  });

  it('finds the free likeness by dropping a frame or trailing words, or by a same-meaning name', () => {
    const drawn = (name: string): string | undefined => /free icon "([^"]+)"/.exec(renderIcon(name).problem?.message ?? '')?.[1];
    expect(drawn('square-code')).toBe('code');
    expect(drawn('rectangle-terminal')).toBe('terminal');
    expect(drawn('book-open-cover')).toBe('book-open');
    expect(drawn('message-bot')).toBe('message');
    expect(drawn('arrows-repeat')).toBe('repeat');
    expect(drawn('megaphone')).toBe('bullhorn');
    expect(drawn('sparkles')).toBe('wand-magic-sparkles');
    expect(drawn('text-size')).toBe('font');
    expect(drawn('fa-light fa-rocket-launch')).toBe('rocket');
    // `arrows` alone is the four-way move icon, not what `arrow-progress` shows: the placeholder stays.
    expect(renderIcon('arrow-progress').svg).toContain('icon-placeholder');
    // A free name is never a substitute, nor warned about.
    expect(renderIcon('rocket').problem).toBeUndefined();
  });

  it('warns about an unknown icon on every component that takes one, with the line it is on', () => {
    const source = [
      '<Card title="A" icon="nope-card">x</Card>',
      '<Steps>',
      '  <Step title="One" icon="nope-step">x</Step>',
      '</Steps>',
      '<Accordion title="Q" icon="nope-accordion">x</Accordion>',
      '<Tabs>',
      '  <Tab title="T" icon="nope-tab">x</Tab>',
      '</Tabs>',
      '<Callout icon="nope-callout">x</Callout>',
      '<Info icon="nope-info">x</Info>',
      '<Badge icon="nope-badge">b</Badge>',
      '<Icon icon="nope-icon" />',
      '<Prompt description="p" icon="nope-prompt">x</Prompt>',
    ].join('\n');
    const page = render(source, { file: 'guides/icons.mdx', ctx: lucide });
    const found = page.warnings.filter((w) => w.code === 'unknown-icon').map((w) => [/"(nope-[a-z]+)"/.exec(w.message)?.[1], w.line]);
    expect(found).toEqual(expect.arrayContaining([
      ['nope-card', 1], ['nope-step', 3], ['nope-accordion', 5], ['nope-tab', 7], ['nope-callout', 9], ['nope-info', 10], ['nope-badge', 11], ['nope-icon', 12], ['nope-prompt', 13],
    ]));
    expect(found).toHaveLength(9);
    expect(page.warnings[0]?.message).toContain('is not a Lucide icon (docs.json "icons.library" is "lucide")');
  });

  it('keeps the theme icons (callout kinds, file trees) in Font Awesome whatever the library, without warnings', () => {
    const page = render('<Note>n</Note>\n\n<Tree>\n  <Tree.File name="a.ts" />\n</Tree>', { ctx: lucide });
    expect(page.html).toContain('icon-circle-info');
    expect(page.html).toContain('icon-file');
    expect(page.warnings).toEqual([]);
  });

  it('still takes image icons and iconType styles', () => {
    expect(render('<Card title="A" icon="/images/logo.png">x</Card>').html).toContain('<img class="c-card__icon-svg" src="/_assets/logo.1a2b3c4d.png"');
    const regular = render('<Card title="A" icon="circle-check" iconType="regular">x</Card>').html;
    const solid = render('<Card title="A" icon="circle-check" iconType="solid">x</Card>').html;
    expect(regular).not.toBe(solid);
  });
});
