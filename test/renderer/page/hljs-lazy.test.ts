/**
 * highlight.js's languages load on first use (renderer/page/hljs.ts): the markup must be exactly
 * the full library's, embedded languages included, and the committed name/alias table must match
 * the installed library (after an upgrade: node scripts/gen-hljs-languages.mjs).
 */
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { HLJS_ALIASES, HLJS_NAMES, HLJS_VERSION } from '../../../renderer/page/hljs-languages.js';

const require = createRequire(import.meta.url);

describe('lazy highlight.js languages', () => {
  it('highlights exactly as the full library, embedded languages included', async () => {
    const samples: [string, string][] = [
      ['html', '<style>p { color: red; }</style>\n<script>const a = 1;</script>\n<p class="x">Hi</p>'],
      ['markdown', '# Title\n\n```js\nconst a = 1;\n```\n'],
      ['php', '<?php echo "hi"; ?>'],
      ['ts', 'const a: number = 1;'],
      ['sh', 'echo "$HOME" | grep x'],
      ['py', 'def f(x):\n    return x'],
      ['erb', '<% if x %><b>y</b><% end %>'],
    ];
    // The lazy instance in a process of its own: test files share modules (vitest isolate: false),
    // so another file may already have loaded the full library into the shared core instance here.
    const script = `
      const { ensureLanguage, hljs } = await import(${JSON.stringify(new URL('../../../renderer/page/hljs.ts', import.meta.url).href)});
      const samples = JSON.parse(process.argv[1]);
      const out = samples.map(([lang, code]) => hljs.highlight(code, { language: ensureLanguage(lang), ignoreIllegals: true }).value);
      console.log(JSON.stringify({ loaded: hljs.listLanguages().length, out }));`;
    const child = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script, JSON.stringify(samples.map(([l, c]) => [l === 'html' ? 'xml' : l, c]))], { encoding: 'utf8' });
    const { loaded, out: lazyOut } = JSON.parse(child) as { loaded: number; out: string[] };
    expect(loaded).toBeLessThan(40);
    // The full library registers every language (on the same core instance: the lazy results are taken first).
    const full = require('highlight.js') as typeof import('highlight.js').default;
    samples.forEach(([lang, code], i) => {
      expect(lazyOut[i], lang).toBe(full.highlight(code, { language: lang === 'html' ? 'xml' : lang, ignoreIllegals: true }).value);
    });
  });

  it('knows no language it does not have', async () => {
    const { ensureLanguage } = await import('../../../renderer/page/hljs.js');
    expect(ensureLanguage('no-such-language')).toBeUndefined();
    expect(ensureLanguage('../../package')).toBeUndefined();
  });
  it('the committed table is the installed library’s (else run scripts/gen-hljs-languages.mjs)', () => {
    expect(HLJS_VERSION).toBe((require('highlight.js/package.json') as { version: string }).version);
    const full = require('highlight.js') as typeof import('highlight.js').default;
    expect([...HLJS_NAMES]).toEqual(full.listLanguages().sort());
    for (const [alias, name] of Object.entries(HLJS_ALIASES)) expect(full.getLanguage(alias), alias).toBe(full.getLanguage(name));
  });

});
