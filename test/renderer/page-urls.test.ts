import { describe, expect, it } from 'vitest';
import { canonicalPath, pageFilePath, pageHref, portableHref } from '../../renderer/page-urls.js';

describe('page URLs (renderer/page-urls.ts)', () => {
  it('lays each page out as a directory index, links it with a trailing slash, names it without', () => {
    expect(pageFilePath('index')).toBe('index.html');
    expect(pageFilePath('guides/intro')).toBe('guides/intro/index.html');
    expect(pageHref('index')).toBe('/');
    expect(pageHref('guides/intro')).toBe('/guides/intro/');
    expect(canonicalPath('index')).toBe('/');
    expect(canonicalPath('guides/intro')).toBe('/guides/intro');
  });

  it('writes a hand-written in-site href in the form a plain static server resolves', () => {
    expect(portableHref('/guides/intro')).toBe('/guides/intro/');
    expect(portableHref('/guides/intro#step')).toBe('/guides/intro/#step');
    expect(portableHref('/guides/intro?tab=a#b')).toBe('/guides/intro/?tab=a#b');
    expect(portableHref('/guides/index')).toBe('/guides/');
    expect(portableHref('/index')).toBe('/');
    expect(portableHref('/guides/')).toBe('/guides/');
    expect(portableHref('/')).toBe('/');
    expect(portableHref('/#top')).toBe('/#top');
    // Files keep their names; outside URLs, fragments and queries are not site paths.
    expect(portableHref('/openapi.json')).toBe('/openapi.json');
    expect(portableHref('/_assets/manual.9f8e7d6c.pdf#page=2')).toBe('/_assets/manual.9f8e7d6c.pdf#page=2');
    expect(portableHref('/guides/intro/index.html')).toBe('/guides/intro/index.html');
    expect(portableHref('/v1.2')).toBe('/v1.2/');
    expect(portableHref('https://x.test/a')).toBe('https://x.test/a');
    expect(portableHref('//cdn.test/a')).toBe('//cdn.test/a');
    expect(portableHref('#top')).toBe('#top');
  });
});
