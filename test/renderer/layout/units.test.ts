import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { brandCss } from '../../../renderer/layout/colors.js';
import { escapeHtml, isExternalHref, safeHref } from '../../../renderer/layout/escape.js';
import { templatesDir } from '../../../renderer/layout/templates.js';
import { packageRoot } from '../../../renderer/theme/package-root.js';

describe('safeHref', () => {
  it('keeps web, mail and site links and neutralises script URLs', () => {
    expect(safeHref('https://x.test/a?b=1')).toBe('https://x.test/a?b=1');
    expect(safeHref('mailto:ops@x.test')).toBe('mailto:ops@x.test');
    expect(safeHref('/guides/intro')).toBe('/guides/intro/');
    expect(safeHref('#top')).toBe('#top');
    expect(safeHref('guides/intro')).toBe('/guides/intro/');
    expect(safeHref('./guides/intro')).toBe('/guides/intro/');
    expect(safeHref('javascript:alert(1)')).toBe('#');
    expect(safeHref(' JavaScript:alert(1)')).toBe('#');
    expect(safeHref('data:text/html,<script>')).toBe('#');
    expect(safeHref('vbscript:x')).toBe('#');
  });

  it('tells external links apart', () => {
    expect(isExternalHref('https://x.test')).toBe(true);
    expect(isExternalHref('//cdn.test/x')).toBe(true);
    expect(isExternalHref('/local')).toBe(false);
  });

  it('escapes the five HTML specials', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;');
  });
});

describe('brandCss', () => {
  it('accepts hex, rgb/hsl and named colours, and fills light/dark from primary', () => {
    expect(brandCss({ primary: '#16A34A' })).toBe(':root{--brand:#16A34A;--brand-light:#16A34A;--brand-dark:#16A34A}');
    expect(brandCss({ primary: 'rgb(1, 2, 3)', light: 'hsl(200 50% 50%)', dark: 'navy' })).toBe(
      ':root{--brand:rgb(1, 2, 3);--brand-light:hsl(200 50% 50%);--brand-dark:navy}',
    );
  });

  it('replaces anything that is not a plain colour', () => {
    const css = brandCss({ primary: 'red;}body{display:none', light: 'url(https://evil.test/x)', dark: '</style>' });
    expect(css).not.toMatch(/display|url|style/);
    expect(css).toMatch(/^:root\{--brand:#[0-9a-f]{6};--brand-light:#[0-9a-f]{6};--brand-dark:#[0-9a-f]{6}\}$/);
  });
});

describe('file locations', () => {
  it('finds the package root and every template from the module, whatever the working directory', () => {
    const before = process.cwd();
    const elsewhere = fs.mkdtempSync(path.join(fs.realpathSync(os.tmpdir()), 'layout-'));
    try {
      process.chdir(elsewhere);
      const root = packageRoot();
      expect(JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).name).toBe('docs-appliance');
      const dir = templatesDir();
      for (const name of ['document', 'topbar', 'tabs', 'switchers', 'sidebar-nodes', 'footer', 'search-dialog', 'drawer-links', 'redirect', 'not-found']) {
        expect(fs.existsSync(path.join(dir, `${name}.ejs`)), name).toBe(true);
      }
    } finally {
      process.chdir(before);
      fs.rmSync(elsewhere, { recursive: true, force: true });
    }
  });
});
