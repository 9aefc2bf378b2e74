/** The reader-access rules every enforcer shares (renderer/access/): requirements and the fragment filter. */
import { describe, expect, it } from 'vitest';
import { ANONYMOUS, canSee, EVERYTHING, requirementOf, unionOf, wrap, type ReaderView } from '../../../renderer/access/contract.js';
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
  const text = `<ul><li>open</li>${wrap('signed-in', `<li>team</li>${wrap('groups:admin', '<li>admin</li>')}`)}<li>end</li></ul>`;

  it('removes what the view may not see, nested fragments included, and every marker', () => {
    expect(filterMarked(text, ANONYMOUS)).toBe('<ul><li>open</li><li>end</li></ul>');
    expect(filterMarked(text, reader())).toBe('<ul><li>open</li><li>team</li><li>end</li></ul>');
    expect(filterMarked(text, reader('admin'))).toBe('<ul><li>open</li><li>team</li><li>admin</li><li>end</li></ul>');
  });

  it('fails closed on an unknown index and on an unclosed fragment', () => {
    expect(filterMarked('a<!--da:nobody-->secret<!--/da-->b', reader('admin'))).toBe('ab');
    expect(filterMarked('a<!--da:%E0%A4%A-->secret<!--/da-->b', reader('admin'))).toBe('ab');
    expect(filterMarked(`a${wrap('groups:admin', 'x')}<!--da:groups%3Aadmin-->secret`, reader())).toBe('a');
    expect(filterMarked('a<!--da:public secret', reader('admin'))).toBe('a');
  });

  it('keeps a group name that looks like a comment end inside its marker', () => {
    const odd = wrap('groups:a-->b', 'inner');
    expect(odd).not.toContain('a-->b');
    expect(filterMarked(`x${odd}y`, reader('a-->b'))).toBe('xinnery');
    expect(filterMarked(`x${odd}y`, reader('a'))).toBe('xy');
  });

  it('returns unmarked text unchanged', () => {
    expect(filterMarked('<p>plain</p>', ANONYMOUS)).toBe('<p>plain</p>');
  });
});
