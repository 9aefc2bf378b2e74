import hljs from 'highlight.js';
import { describe, expect, it } from 'vitest';
import { highlightCode, parseFenceInfo } from '../../../renderer/page/code.js';

const pre = (lang: string, body: string): string => `<pre class="c-code__pre" tabindex="0"><code class="hljs language-${lang}">${body}</code></pre>`;

describe('highlighted code, remembered per worker', () => {
  it('gives highlight.js output for a block seen before, a block in another language and a block after many others', () => {
    const ts = "import { a } from 'b';\nexport const x = await a({ retries: 3 });";
    const body = hljs.highlight(ts, { language: 'typescript', ignoreIllegals: true }).value;
    const expected = pre('ts', body);
    expect(highlightCode(ts, parseFenceInfo('ts'))).toBe(expected);
    // The same text, seen again (a versioned site repeats its blocks): the same markup.
    expect(highlightCode(ts, parseFenceInfo('ts'))).toBe(expected);
    expect(highlightCode(ts, parseFenceInfo('typescript'))).toBe(pre('typescript', body));
    // The same text in another language is highlighted as that language, not taken from the memo.
    expect(highlightCode(ts, parseFenceInfo('python'))).toBe(pre('python', hljs.highlight(ts, { language: 'python', ignoreIllegals: true }).value));
    // Past the memo's budget (8 M characters) the oldest entries go; output stays right.
    const big = `const s = "${'x'.repeat(400_000)}";`;
    for (let i = 0; i < 25; i++) highlightCode(`${big}// ${i}`, parseFenceInfo('js'));
    expect(highlightCode(ts, parseFenceInfo('ts'))).toBe(expected);
    // Marked lines are applied to the remembered markup, not stored in it.
    const marked = highlightCode(ts, parseFenceInfo('ts {2}'));
    expect(marked).toContain('c-code__line--marked');
    expect(highlightCode(ts, parseFenceInfo('ts'))).toBe(expected);
  });
});
