import { describe, expect, it } from 'vitest';
import { normalisePagePath, normaliseQuery } from '../../app/analytics/normalise.js';

/** The rule written out the long way: what the ASCII shortcut must agree with. */
const reference = (q: string) => q.normalize('NFC').trim().replace(/\s+/gu, ' ').toLowerCase();

describe('normaliseQuery', () => {
  it('trims, collapses whitespace, folds case and composes to NFC', () => {
    expect(normaliseQuery('  Install \t on\nRHEL  ')).toBe('install on rhel');
    expect(normaliseQuery('Cafe\u0301')).toBe('caf\u00e9');
    expect(normaliseQuery('ÉTÉ')).toBe('été');
    expect(normaliseQuery('a\u00a0b')).toBe('a b');
  });

  it('agrees with the long form on plain ASCII and on everything else', () => {
    const samples = ['install', 'Install On RHEL', 'a  b', ' a', 'a ', 'x\u2028y', 'C++ & Go!', '~/.bashrc', 'tab\there', 'ẞig', '', ' '];
    for (const q of samples) expect(normaliseQuery(q)).toBe(reference(q));
  });
});

describe('normalisePagePath', () => {
  it('reads /x/, /x/index.html and /x as the canonical /x, and keeps the root', () => {
    expect(normalisePagePath('/guides/intro/')).toBe('/guides/intro');
    expect(normalisePagePath('/guides/intro/index.html')).toBe('/guides/intro');
    expect(normalisePagePath('/guides/intro')).toBe('/guides/intro');
    expect(normalisePagePath('/')).toBe('/');
    expect(normalisePagePath('/index.html')).toBe('/');
    expect(normalisePagePath('//')).toBe('/');
  });
});
