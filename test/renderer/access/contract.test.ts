/** The reader-access rules every enforcer shares (renderer/access/): requirements and the fragment filter. */
import { describe, expect, it } from 'vitest';
import { ANONYMOUS, canSee, EVERYTHING, requirementOf, unionOf, wrap, type ReaderView, type Requirement } from '../../../renderer/access/contract.js';
import { filterMarked } from '../../../renderer/access/filter.js';

const reader = (...groups: string[]): ReaderView => ({ signedIn: true, groups: new Set(groups) });

describe('requirements', () => {
  it('follows Mintlify: default signed-in, public: true is public, groups win over public', () => {
    expect(requirementOf({})).toBe('signed-in');
    expect(requirementOf({ public: true })).toBe('public');
    expect(requirementOf({ public: true, groups: ['b', 'a', 'a', ' '] })).toBe('groups:a,b');
  });

  it('lets a reader see a group page when they are in any one of its groups', () => {
    expect(canSee('groups:admin,billing', reader('billing'))).toBe(true);
    expect(canSee('groups:admin,billing', reader('eng'))).toBe(false);
    expect(canSee('groups:admin', ANONYMOUS)).toBe(false);
    expect(canSee('signed-in', ANONYMOUS)).toBe(false);
    expect(canSee('signed-in', reader())).toBe(true);
    expect(canSee('public', ANONYMOUS)).toBe(true);
    expect(canSee('groups:admin', EVERYTHING)).toBe(true);
  });

  it('gives a shared file the weakest requirement of the pages using it', () => {
    expect(unionOf(['groups:a', 'groups:b'])).toBe('groups:a,b');
    expect(unionOf(['groups:a', 'signed-in'])).toBe('signed-in');
    expect(unionOf(['groups:a', 'public'])).toBe('public');
  });
});

describe('filterMarked', () => {
  const reqs: Requirement[] = ['public', 'signed-in', 'groups:admin'];
  const text = `<ul><li>open</li>${wrap(1, `<li>team</li>${wrap(2, '<li>admin</li>')}`)}<li>end</li></ul>`;

  it('removes what the view may not see, nested fragments included, and every marker', () => {
    expect(filterMarked(text, reqs, ANONYMOUS)).toBe('<ul><li>open</li><li>end</li></ul>');
    expect(filterMarked(text, reqs, reader())).toBe('<ul><li>open</li><li>team</li><li>end</li></ul>');
    expect(filterMarked(text, reqs, reader('admin'))).toBe('<ul><li>open</li><li>team</li><li>admin</li><li>end</li></ul>');
  });

  it('fails closed on an unknown index and on an unclosed fragment', () => {
    expect(filterMarked(`a${wrap(9, 'secret')}b`, reqs, reader('admin'))).toBe('ab');
    expect(filterMarked('a<!--da:2-->secret', reqs, reader())).toBe('a');
    expect(filterMarked('a<!--da:2 secret', reqs, reader('admin'))).toBe('a');
  });

  it('returns unmarked text unchanged', () => {
    expect(filterMarked('<p>plain</p>', reqs, ANONYMOUS)).toBe('<p>plain</p>');
  });
});
