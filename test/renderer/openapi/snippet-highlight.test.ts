import hljs from 'highlight.js';
import { describe, expect, it } from 'vitest';
import { requestSamples } from '../../../renderer/openapi/snippets.js';
import { recoverValues } from '../../../renderer/openapi/snippet-highlight.js';
import type { ApiOperation, ApiSchema } from '../../../renderer/openapi/types.js';
import { languageOf } from '../../../renderer/page/code.js';

const ALL = ['bash', 'python', 'javascript', 'node', 'php', 'go', 'java', 'ruby', 'powershell', 'swift', 'csharp', 'dotnet', 'typescript', 'c', 'kotlin'];

function op(path: string, body: Record<string, string | number>, header: string, method = 'POST'): ApiOperation {
  const props = Object.entries(body).map(([name, v]) => ({ name, required: true, schema: { type: typeof v === 'number' ? 'integer' : 'string', example: v } as ApiSchema }));
  return {
    method,
    path,
    specFile: 'a.json',
    title: 't',
    deprecated: false,
    servers: ['https://api.example.test'],
    showBaseUrl: false,
    security: [{ schemes: [{ name: 'bearer', kind: 'bearer' }] }],
    parameters: [
      { name: 'id', in: 'path', required: true, deprecated: false, schema: { type: 'string' } },
      { name: 'X-Trace', in: 'header', required: true, deprecated: false, schema: { type: 'string', example: header } },
      { name: 'q', in: 'query', required: true, deprecated: false, schema: { type: 'string', example: header } },
    ],
    requestBody: { required: true, media: [{ type: 'application/json', examples: [], schema: { type: 'object', properties: props } }] },
    responses: [],
    languages: ALL,
    requiredOnly: false,
    autogenerate: true,
    expandAll: false,
  };
}

const reference = (fence: string, code: string): string => hljs.highlight(code, { language: languageOf(fence) as string, ignoreIllegals: true }).value;

describe('request examples highlighted per request shape', () => {
  it('gives exactly highlight.js markup, for values that need no quoting and values that do', () => {
    const ops = [
      op('/v1/pets/{id}', { name: 'Rex', age: 3 }, 'abc-123'),
      op('/v1/pets/{id}', { name: 'Fido', age: 4 }, 'def-456'),
      op('/v2/owners/{id}/pets', { nickname: 'a much longer value that will not fit on one line at all', age: 4 }, 'x'),
      // Quotes, backslashes, `$`, `#`, newlines: each language quotes/escapes these its own way.
      op('/v1/pets/{id}', { name: "it's \"quoted\" $HOME #not-a-comment\\n", 'odd key': 1 }, 'a b\tc'),
      op('/v1/pets/{id}', { name: '${x} `cmd`' }, '<token>', 'PATCH'),
    ];
    let fromShape = 0;
    let total = 0;
    for (const o of ops) {
      for (const s of requestSamples(o)) {
        total++;
        if (s.html === undefined) continue;
        fromShape++;
        expect(s.html, `${s.label} for ${o.path}`).toBe(reference(s.fence, s.code));
      }
    }
    // Most of the simple requests reuse a shape; the test is only meaningful if some do.
    expect(total).toBeGreaterThan(50);
    expect(fromShape).toBeGreaterThan(total / 2);
  });

  it('recovers the values between the shape code\'s literals, refusing ones that could change tokens', () => {
    expect(recoverValues("curl 'https://x/zqx0q' -H 'A: zqx1q'", "curl 'https://x/v1/a' -H 'A: b c'")).toEqual(['v1/a', 'b c']);
    expect(recoverValues("x = 'zqx0q'", "x = 'it\\'s'")).toBeUndefined();
    expect(recoverValues("x = 'zqx0q'", 'x = "a"')).toBeUndefined();
    expect(recoverValues('a zqx0qqqq b', 'a $HOME b')).toBeUndefined();
  });

  it('stays exact past the shape cache\'s bound, for shapes evicted and made again', () => {
    // A header name is part of a request's shape: 450 names are 450 shapes per language, past the
    // 400 the cache keeps; the first ones are evicted, then asked for again.
    const named = (i: number, lang: string): ApiOperation => {
      const o = op('/v1/pets/{id}', { name: 'Rex' }, 'abc-123');
      return { ...o, languages: [lang], parameters: o.parameters.map((p) => (p.in === 'header' ? { ...p, name: `X-Trace-${i}` } : p)) };
    };
    let checked = 0;
    for (const lang of ['bash', 'python']) {
      for (const i of [...Array.from({ length: 450 }, (_, k) => k), 0, 1, 2, 449]) {
        const [s] = requestSamples(named(i, lang));
        expect(s?.html, `${lang} ${i}`).toBeDefined();
        expect(s?.html).toBe(reference(s?.fence as string, s?.code as string));
        checked++;
      }
    }
    expect(checked).toBe(908);
  });
});
