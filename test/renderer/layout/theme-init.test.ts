import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';

const source = fs.readFileSync(path.resolve(import.meta.dirname, '../../../renderer/assets/client/theme-init.js'), 'utf8');

/** Runs theme-init.js against a fake <html> and returns the data-theme it set. */
function run(opts: { appearance: string; strict?: boolean; saved?: string | null; osDark?: boolean; storageThrows?: boolean }): string | undefined {
  const attrs: Record<string, string> = { 'data-appearance': opts.appearance };
  if (opts.strict) attrs['data-appearance-strict'] = 'true';
  const documentElement = {
    getAttribute: (k: string) => attrs[k] ?? null,
    setAttribute: (k: string, v: string) => {
      attrs[k] = v;
    },
  };
  const window = {
    localStorage: {
      getItem: (k: string) => {
        if (opts.storageThrows) throw new Error('SecurityError');
        return k === 'docs-theme' ? (opts.saved ?? null) : null;
      },
    },
    matchMedia: (q: string) => ({ matches: q.includes('dark') && opts.osDark === true }),
  };
  vm.runInNewContext(source, { window, document: { documentElement } });
  return attrs['data-theme'];
}

describe('theme-init.js', () => {
  it('follows the OS when the site default is system and the reader has not chosen', () => {
    expect(run({ appearance: 'system', osDark: true })).toBe('dark');
    expect(run({ appearance: 'system', osDark: false })).toBe('light');
  });

  it('uses the site default over the OS, and the reader choice over both', () => {
    expect(run({ appearance: 'light', osDark: true })).toBe('light');
    expect(run({ appearance: 'dark', osDark: false })).toBe('dark');
    expect(run({ appearance: 'light', saved: 'dark' })).toBe('dark');
    expect(run({ appearance: 'system', saved: 'light', osDark: true })).toBe('light');
  });

  it('ignores a stored choice on a strict site, and garbage in storage', () => {
    expect(run({ appearance: 'dark', strict: true, saved: 'light' })).toBe('dark');
    expect(run({ appearance: 'system', strict: true, saved: 'light', osDark: true })).toBe('dark');
    expect(run({ appearance: 'light', saved: 'purple' })).toBe('light');
  });

  it('still sets a theme when storage is blocked', () => {
    expect(run({ appearance: 'system', osDark: true, storageThrows: true })).toBe('dark');
  });
});
