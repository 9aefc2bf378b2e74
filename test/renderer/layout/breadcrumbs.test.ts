import { describe, expect, it } from 'vitest';
import { crumbsFor } from '../../../renderer/layout/breadcrumbs.js';
import type { RenderContext } from '../../../renderer/types.js';

const ctx = {
  sections: [
    {
      id: 'guides',
      trail: [],
      href: '/a',
      external: false,
      hidden: false,
      sidebar: [
        {
          kind: 'group',
          title: 'Operate',
          children: [
            { kind: 'page', slug: 'a', title: 'A' },
            { kind: 'group', title: 'Publishing', root: 'pub', children: [{ kind: 'page', slug: 'b', title: 'B' }] },
            { kind: 'group', title: 'Empty', children: [{ kind: 'link', title: 'x', href: 'https://x.invalid' }] },
          ],
        },
      ],
    },
  ],
  pageIndex: { a: { title: 'A', url: '/a' }, b: { title: 'B', url: '/b' }, pub: { title: 'P', url: '/pub' } },
} as unknown as RenderContext;

describe('breadcrumbs', () => {
  it('link each group to its root page, else its first page', () => {
    expect(crumbsFor(ctx, 'guides', ['Operate', 'Publishing'])).toEqual([
      { title: 'Operate', url: '/a' },
      { title: 'Publishing', url: '/pub' },
    ]);
  });

  it('stay plain text for a group without pages or a trail that does not match', () => {
    expect(crumbsFor(ctx, 'guides', ['Operate', 'Empty'])).toEqual([{ title: 'Operate', url: '/a' }, { title: 'Empty' }]);
    expect(crumbsFor(ctx, 'nope', ['Operate'])).toEqual([{ title: 'Operate' }]);
    expect(crumbsFor(ctx, 'guides', [])).toEqual([]);
  });
});
