import { describe, expect, it } from 'vitest';
import { renderDocument } from '../../../renderer/layout/index.js';
import { switcherLevels } from '../../../renderer/layout/switchers.js';
import type { NavSection } from '../../../renderer/types.js';
import { fixtureContent, fixtureCtx, fixturePage } from './fixture-ctx.js';

function section(id: string, trail: NavSection['trail'], href: string, extra: Partial<NavSection> = {}): NavSection {
  return {
    id,
    trail,
    href,
    external: false,
    hidden: false,
    sidebar: [{ kind: 'group', title: 'G', children: [{ kind: 'page', slug: id.replace(/\//g, '-'), title: id }] }],
    ...extra,
  };
}

describe('switcherLevels', () => {
  const en = { kind: 'language' as const, title: 'English' };
  const fr = { kind: 'language' as const, title: 'Français' };
  const docs = { kind: 'anchor' as const, title: 'Docs', icon: 'book' };
  const api = { kind: 'anchor' as const, title: 'API', icon: 'code' };
  const sections = [
    section('en/docs', [en, docs], '/en/'),
    section('en/api', [en, api], '/en/api/'),
    section('fr/docs', [fr, docs], '/fr/'),
    section('en/secret', [en, { kind: 'anchor', title: 'Secret' }], '/en/secret/', { hidden: true }),
    section('en/blog', [en, { kind: 'anchor', title: 'Blog' }], 'https://blog.test', { external: true, sidebar: [] }),
  ];

  it('offers the distinct options at each depth among sections sharing the trail prefix', () => {
    const levels = switcherLevels(sections, sections[1]);
    expect(levels.map((l) => l.kind)).toEqual(['language', 'anchor']);
    expect(levels[0]!.options.map((o) => [o.title, o.href, o.current])).toEqual([
      ['English', '/en/', true],
      ['Français', '/fr/', false],
    ]);
    // French anchors are not siblings of English ones; the hidden section is not offered.
    expect(levels[1]!.options.map((o) => [o.title, o.current, o.external])).toEqual([
      ['Docs', false, false],
      ['API', true, false],
      ['Blog', false, true],
    ]);
  });

  it('still shows a hidden section as current when the reader is on it', () => {
    const levels = switcherLevels(sections, sections[3]);
    expect(levels[1]!.options.find((o) => o.current)?.title).toBe('Secret');
  });

  it('names language tags in their own language', () => {
    const tagged = [section('fr', [{ kind: 'language', title: 'fr' }], '/fr/'), section('de', [{ kind: 'language', title: 'de' }], '/de/')];
    expect(switcherLevels(tagged, tagged[0])[0]!.options.map((o) => o.title)).toEqual(['français', 'Deutsch']);
    const html = renderDocument({
      page: fixturePage({ slug: 'fr', sectionId: 'fr', breadcrumbs: [] }),
      content: fixtureContent(),
      ctx: { ...fixtureCtx(), sections: tagged },
    });
    expect(html).toMatch(/^<!doctype html>\n<html lang="fr"/);
  });

  it('has no switchers for a site without divisions', () => {
    expect(switcherLevels([section('root', [], '/')], section('root', [], '/'))).toEqual([]);
    expect(switcherLevels([], undefined)).toEqual([]);
  });

  it('renders anchors above the sidebar and languages in the top bar', () => {
    const ctx = fixtureCtx();
    ctx.sections = sections;
    ctx.pageIndex['en-api'] = { title: 'API home', url: '/en/api/', sectionId: 'en/api' };
    const html = renderDocument({
      page: fixturePage({ slug: 'en-api', sectionId: 'en/api', breadcrumbs: ['G'], prev: undefined, next: undefined }),
      content: fixtureContent({ title: 'API home' }),
      ctx,
    });
    const topbar = html.match(/<header class="topbar">[\s\S]*?<\/header>/)?.[0] ?? '';
    expect(topbar).toContain('switcher-language');
    expect(topbar).toContain('<a href="/fr/"><span>Français</span></a>');
    const sidebar = html.match(/<aside class="sidebar"[\s\S]*?<\/aside>/)?.[0] ?? '';
    expect(sidebar).toMatch(/<ul class="anchors" aria-label="Quick links">/);
    expect(sidebar).toMatch(/<a class="anchor-link" href="\/en\/api\/" aria-current="true">/);
    expect(sidebar).toMatch(/<a class="anchor-link" href="https:\/\/blog.test" rel="noopener">/);
    expect(sidebar).not.toContain('Secret');
    // Repeated at the top of the phone drawer, where the top bar has no room for it.
    expect(sidebar).toMatch(/<div class="drawer-only">\s*<details class="switcher switcher-language"/);
    expect(html).not.toContain('class="tabs"');
  });
});

describe('sidebar details', () => {
  it('links a group title to its root page and marks it when current', () => {
    const ctx = fixtureCtx();
    ctx.sections[0]!.sidebar = [
      {
        kind: 'group',
        title: 'Top',
        children: [{ kind: 'group', title: 'With root', root: 'quickstart', children: [{ kind: 'page', slug: 'other', title: 'Other page' }] }],
      },
      { kind: 'group', title: 'Always open', children: [{ kind: 'group', title: 'Expanded', expanded: true, children: [{ kind: 'page', slug: 'index', title: 'Home' }] }] },
    ];
    const html = renderDocument({ page: fixturePage({ slug: 'quickstart' }), content: fixtureContent({ title: 'Quickstart' }), ctx });
    // The link sits beside the group's toggle, never inside it (no interactive element in a <summary>).
    expect(html).toMatch(/<li class="nav-group-root"><a class="nav-group-link" href="\/quickstart\/" aria-current="page">(?:(?!<\/a>).)*With root<\/span><\/a><details class="nav-group" open><summary class="nav-group-title nav-group-toggle" aria-label="With root: show or hide its pages"><\/summary>/s);
    expect(html).not.toMatch(/<summary[^>]*>(?:(?!<\/summary>).)*<a /s);
    expect(html).toMatch(/<details class="nav-group" open><summary[^>]*>.*Expanded/);
  });
});
