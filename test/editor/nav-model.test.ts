import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { addGroup, addPage, addTab, formattingOf, move, moveTo, NavEditError, nodeAt, pagesIn, readNavigation, remove, rename, type NavNode } from '../../app/editor/nav/model.js';
import { normaliseDocsJson } from '../../renderer/load/normalise-docs-json.js';

const fixture = (name: string) => fs.readFileSync(path.join(import.meta.dirname, '..', 'fixtures', 'nav', `${name}.docs.json`), 'utf8');
const starter = fixture('starter');
const nav = (text: string) => (JSON.parse(text) as { navigation: Record<string, unknown> }).navigation;
const valid = (text: string) => normaliseDocsJson(JSON.parse(text) as Record<string, unknown>, 'docs.json');
const outline = (nodes: NavNode[], depth = 0): string[] => nodes.flatMap((n) => [`${'  '.repeat(depth)}${n.kind}:${n.label}`, ...outline(n.children, depth + 1)]);
/** Everything outside `navigation` is byte-identical: the text before and after its value. */
const outsideNav = (text: string) => {
  const start = text.indexOf('"navigation"');
  const tail = text.slice(start).search(/\n {2}[}"]/);
  return [text.slice(0, start), text.slice(start + tail)];
};

describe('reading the navigation', () => {
  test('tabs, groups and pages of the starter kit', () => {
    const tree = readNavigation(starter);
    expect(outline(tree).slice(0, 6)).toEqual(['tab:Guides', '  group:Getting started', '    page:index', '    page:quickstart', '    page:development', '  group:Customization']);
    expect(tree.map((n) => n.label)).toEqual(['Guides', 'API reference']);
    expect(tree[0]!.children[1]!.path).toEqual(['navigation', 'tabs', 0, 'groups', 1]);
    expect(pagesIn(tree)).toContain('api-reference/endpoint/get');
  });

  test('anchors holding tabs, and languages holding tabs with nested groups', () => {
    const anchors = readNavigation(fixture('anchors'));
    expect(outline(anchors).slice(0, 4)).toEqual(['anchor:Documentation', '  tab:Get Started', '    group:Start Here', '      page:introduction']);
    const languages = readNavigation(fixture('languages'));
    expect(languages[0]).toMatchObject({ kind: 'language', label: 'en', path: ['navigation', 'languages', 0] });
    const nested = nodeAt(languages, ['navigation', 'languages', 0, 'tabs', 0, 'groups', 1, 'pages', 0])!;
    expect(nested).toMatchObject({ kind: 'group', label: 'Pages' });
    expect(nested.children.map((c) => c.label)).toEqual(['organize/pages', 'organize/hidden-pages', 'organize/related-pages']);
  });

  test('a root with only groups, and a file without navigation', () => {
    expect(outline(readNavigation('{"navigation":{"groups":[{"group":"Start","pages":["index"]}]}}'))).toEqual(['group:Start', '  page:index']);
    expect(readNavigation('{"name":"x"}')).toEqual([]);
  });
});

describe('editing the navigation', () => {
  test('add a group with a page, move it up: only the navigation changes, the file stays valid', () => {
    let text = addGroup(starter, ['navigation', 'tabs', 0], 'Tutorials');
    text = addPage(text, ['navigation', 'tabs', 0, 'groups', 4], 'tutorials/first');
    text = move(text, ['navigation', 'tabs', 0, 'groups', 4], -1);
    const groups = (nav(text).tabs as { groups: { group: string; pages: string[] }[] }[])[0]!.groups;
    expect(groups.map((g) => g.group)).toEqual(['Getting started', 'Customization', 'Writing content', 'Tutorials', 'AI tools']);
    expect(groups[3]!.pages).toEqual(['tutorials/first']);
    expect(outsideNav(text)).toEqual(outsideNav(starter));
    // The inserted group is indented as its neighbours are.
    expect(text).toContain('\n          {\n            "group": "Tutorials",\n            "pages": [\n              "tutorials/first"\n            ]\n          },');
    expect(() => valid(text)).not.toThrow();
    // The untouched tab is the same text.
    const second = (t: string) => t.slice(t.indexOf('"tab": "API reference"'));
    expect(second(text)).toBe(second(starter));
  });

  test('rename, remove, move at the ends, add a tab', () => {
    const renamed = rename(starter, ['navigation', 'tabs', 0, 'groups', 0], 'Start here');
    expect(renamed).toBe(starter.replace('"group": "Getting started"', '"group": "Start here"'));
    expect(rename(starter, ['navigation', 'tabs', 1], 'API')).toBe(starter.replace('"tab": "API reference"', '"tab": "API"'));

    const removed = remove(starter, ['navigation', 'tabs', 0, 'groups', 0, 'pages', 1]);
    expect(removed).toBe(starter.replace('"index",\n              "quickstart",\n', '"index",\n'));

    expect(move(starter, ['navigation', 'tabs', 0], -1)).toBe(starter);
    expect(move(starter, ['navigation', 'tabs', 1], 1)).toBe(starter);
    const swapped = move(starter, ['navigation', 'tabs', 0, 'groups', 0, 'pages', 0], 1);
    expect((nav(swapped).tabs as { groups: { pages: string[] }[] }[])[0]!.groups[0]!.pages).toEqual(['quickstart', 'index', 'development']);

    const tabbed = addTab(starter, 'Changelog');
    expect(readNavigation(tabbed).map((n) => n.label)).toEqual(['Guides', 'API reference', 'Changelog']);
    expect(() => valid(tabbed)).not.toThrow();
  });

  test('move a page between groups, and a group into a later group', () => {
    const moved = moveTo(starter, ['navigation', 'tabs', 0, 'groups', 0, 'pages', 2], ['navigation', 'tabs', 0, 'groups', 1]);
    const groups = (t: string) => (nav(t).tabs as { groups: { group: string; pages: unknown[] }[] }[])[0]!.groups;
    expect(groups(moved)[0]!.pages).toEqual(['index', 'quickstart']);
    expect(groups(moved)[1]!.pages).toEqual(['essentials/settings', 'essentials/navigation', 'development']);

    // The later sibling's index shifts once the group before it is taken out.
    const nested = moveTo(starter, ['navigation', 'tabs', 0, 'groups', 1], ['navigation', 'tabs', 0, 'groups', 2]);
    expect(groups(nested).map((g) => g.group)).toEqual(['Getting started', 'Writing content', 'AI tools']);
    expect(groups(nested)[1]!.pages.at(-1)).toEqual({ group: 'Customization', pages: ['essentials/settings', 'essentials/navigation'] });
    expect(() => valid(nested)).not.toThrow();

    expect(() => moveTo(starter, ['navigation', 'tabs', 0, 'groups', 1], ['navigation', 'tabs', 0, 'groups', 1])).toThrow(NavEditError);
    expect(() => moveTo(starter, ['navigation', 'tabs', 0, 'groups', 0, 'pages', 0], ['navigation', 'tabs', 1])).toThrow(NavEditError);
  });

  test('a nested group in a languages config, and a tab-indented file keeps its tabs', () => {
    const languages = fixture('languages');
    const at = ['navigation', 'languages', 0, 'tabs', 0, 'groups', 1, 'pages', 0];
    const text = addPage(languages, at, 'organize/new');
    expect(readNavigation(text).length).toBe(readNavigation(languages).length);
    expect(nodeAt(readNavigation(text), at)!.children.at(-1)!.label).toBe('organize/new');
    // Only the one line was added (and a comma on the line before).
    expect(text.split('\n').length).toBe(languages.split('\n').length + 1);

    const tabs = JSON.stringify(JSON.parse(starter), null, '\t');
    expect(formattingOf(tabs)).toMatchObject({ insertSpaces: false });
    const grouped = addGroup(tabs, ['navigation', 'tabs', 1], 'More');
    expect(grouped).toContain('\t\t\t\t\t},\n\t\t\t\t\t{\n\t\t\t\t\t\t"group": "More",\n\t\t\t\t\t\t"pages": []\n\t\t\t\t\t}\n\t\t\t\t]');
  });
});
