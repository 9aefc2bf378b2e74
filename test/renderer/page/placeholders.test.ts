/**
 * The renderer marks rendered pieces with private-use characters (U+E000–U+E005) and puts the
 * pieces back at the end. Those characters written by an author (in a page, a snippet or a config
 * variable) must stay text: otherwise they pull a rendered piece (with its quotes and tags) into
 * an attribute value and break out of it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseDocument } from 'htmlparser2';
import type { ChildNode, Element } from 'domhandler';
import { describe, expect, it } from 'vitest';
import { makeCtx, render } from './helpers.js';

const PU = (n: number): string => String.fromCharCode(0xe000 + n);
const SLOT0_INLINE = `${PU(0)}0${PU(1)}`;
const SLOT0_BLOCK = `${PU(2)}0${PU(3)}`;
const HEADING0 = `${PU(4)}0${PU(5)}`;

function elements(nodes: ChildNode[], out: Element[] = []): Element[] {
  for (const n of nodes) if (n.type === 'tag') { out.push(n as Element); elements((n as Element).children, out); }
  return out;
}

describe('placeholder characters written by an author', () => {
  const first = '<Card title="A &quot;quoted&quot; card" href="/guides/intro">x<img src="/images/logo.png" /></Card>\n\n';
  it.each([
    ['an attribute of raw HTML', `${first}<a title="${SLOT0_INLINE}" href="/guides/intro">t</a>\n`],
    ['a component prop', `${first}<Tooltip tip="${SLOT0_BLOCK}">t</Tooltip>\n`],
    ['prose and a heading', `${first}## Title ${HEADING0}\n\nText ${SLOT0_INLINE} and ${SLOT0_BLOCK}\n`],
  ])('in %s are shown as text, never replaced by a rendered piece', (_name, source) => {
    const page = render(source);
    expect(page.html).not.toMatch(/[\uE000-\uE005]/);
    expect(page.html).toContain('\uFFFD0\uFFFD');
    const cards = elements(parseDocument(page.html).children).filter((el) => /\bc-card\b/.test(el.attribs['class'] ?? ''));
    expect(cards).toHaveLength(1);
    for (const el of elements(parseDocument(page.html).children)) {
      for (const value of Object.values(el.attribs)) expect(value).not.toMatch(/[<>]/);
    }
  });

  it('in a snippet and in a config variable are shown as text too', () => {
    const repo = fs.mkdtempSync(path.join(os.tmpdir(), 'placeholders-'));
    fs.mkdirSync(path.join(repo, 'snippets'));
    fs.writeFileSync(path.join(repo, 'snippets', 's.mdx'), `<span title="${SLOT0_INLINE}">s</span>\n`);
    const ctx = makeCtx({ repoRoot: repo }, { variables: { v: SLOT0_INLINE } });
    const page = render(`${first}import S from '/snippets/s.mdx';\n\n<S />\n\n<span title="{{v}}">v</span>\n`, { ctx });
    expect(page.html).not.toMatch(/[\uE000-\uE005]/);
    expect(page.html).toContain('<span title="\uFFFD0\uFFFD">s</span>');
    expect(page.html).toContain('<span title="\uFFFD0\uFFFD">v</span>');
    expect(elements(parseDocument(page.html).children).filter((el) => /\bc-card\b/.test(el.attribs['class'] ?? ''))).toHaveLength(1);
    fs.rmSync(repo, { recursive: true, force: true });
  });
});
