import { describe, expect, it } from 'vitest';
import { cacheControlFor, IMMUTABLE, REVALIDATE } from '../../app/site/cache-policy.js';

describe('cache policy of bundle paths', () => {
  it('caches content-hashed search chunks and shared sidebars for a year, and revalidates the index entry points', () => {
    expect(cacheControlFor('_search/en--v2/t.3f2a9c1b0d4e.json')).toBe(IMMUTABLE);
    expect(cacheControlFor('_search/all/d.0123456789ab.json')).toBe(IMMUTABLE);
    expect(cacheControlFor('_sidebar/sidebar.b1671df06bbd.html')).toBe(IMMUTABLE);
    expect(cacheControlFor('_search/en--v2/meta.json')).toBe(REVALIDATE);
    expect(cacheControlFor('_search/scopes.json')).toBe(REVALIDATE);
    // A hashed-looking name elsewhere (a page) is still revalidated.
    expect(cacheControlFor('guides/x.3f2a9c1b0d.html')).toBe(REVALIDATE);
    expect(cacheControlFor('_static/site.3f2a9c1b0d.css')).toBe(IMMUTABLE);
  });
});
