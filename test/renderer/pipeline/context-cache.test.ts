/**
 * A render worker keeps the parsed context of at most two exports (renderer/pool/render-batch.ts),
 * and drops the context of an export that has finished (its context file removed) as soon as the
 * next export's first batch arrives, instead of holding a big site's navigation until two more
 * exports have run.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { writeContextFile } from '../../../renderer/pool/context-file.js';
import { cachedContextPaths, renderBatch } from '../../../renderer/pool/render-batch.js';
import { fixtureCtx } from '../layout/fixture-ctx.js';

const files: { path: string; remove(): void }[] = [];
const contextFile = () => {
  const f = writeContextFile(fixtureCtx());
  files.push(f);
  return f;
};
const batch = (contextPath: string) => renderBatch({ contextPath, pages: [], firstIndex: 0, keepHtml: true, maxSearchText: 1000 });

afterEach(() => {
  for (const f of files.splice(0)) f.remove();
});

describe('the render worker\'s context cache', () => {
  it('drops a finished export\'s context when the next export starts', () => {
    const a = contextFile();
    const b = contextFile();
    batch(a.path);
    batch(b.path);
    expect(cachedContextPaths().slice(-2)).toEqual([a.path, b.path]);
    // Export A finishes (its file goes); export C's first batch arrives.
    a.remove();
    const c = contextFile();
    batch(c.path);
    expect(cachedContextPaths()).toEqual([b.path, c.path]);
    b.remove();
    c.remove();
    const d = contextFile();
    batch(d.path);
    expect(cachedContextPaths()).toEqual([d.path]);
  });

  it('keeps two running exports\' contexts, evicting the oldest for a third', () => {
    const [a, b, c] = [contextFile(), contextFile(), contextFile()];
    batch(a.path);
    batch(b.path);
    batch(c.path);
    expect(cachedContextPaths()).toEqual([b.path, c.path]);
    // A batch of a cached export does not parse again or reorder.
    batch(b.path);
    expect(cachedContextPaths()).toEqual([b.path, c.path]);
  });
});
