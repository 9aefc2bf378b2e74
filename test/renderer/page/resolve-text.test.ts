/**
 * The page's plain text (search, Markdown fallback) is its HTML's text with each rendered piece's
 * own text put back where its placeholder stands: inline pieces join their sentence, block pieces
 * stand apart, a piece used twice reads twice, and a piece that holds itself reads once.
 */
import { describe, expect, it } from 'vitest';
import { Resolver } from '../../../renderer/page/resolve.js';
import { PageState } from '../../../renderer/page/state.js';
import { makeCtx } from './helpers.js';

describe('Resolver.text', () => {
  it('puts inline and block pieces back, nested, and reads a reused piece each time', () => {
    const state = new PageState(makeCtx(), 'page.mdx');
    const word = state.inline('<b>bold</b>', 'bold');
    const box = state.block('<div>…</div>', `inside ${word} box`);
    const resolver = new Resolver(state);
    expect(resolver.text(`a ${word}er, then${box}and${box}end`)).toBe('a bolder, then inside bold box and inside bold box end');
    // Reused across calls on the same resolver (a heading's text after the page's).
    expect(resolver.text(`[${box}]`)).toBe('[ inside bold box ]');
    expect(resolver.text('no pieces')).toBe('no pieces');
  });

  it('reads a piece that contains its own placeholder once, without looping', () => {
    const state = new PageState(makeCtx(), 'page.mdx');
    const self = state.inline('<i>x</i>', 'loop \uE0000\uE001 end');
    expect(new Resolver(state).text(`start ${self}.`)).toBe('start loop  end.');
  });
});
