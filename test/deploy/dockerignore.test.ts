import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The image's build context is "nothing but what .dockerignore lets through" (`**` then `!…`):
// a file the Dockerfile copies from the context but the ignore list leaves out fails the image
// build only (the container test), long after the commit. This keeps the two lists together.
const root = path.resolve(import.meta.dirname, '../..');
const dockerfile = fs.readFileSync(path.join(root, 'Dockerfile'), 'utf8');
const allowed = fs
  .readFileSync(path.join(root, '.dockerignore'), 'utf8')
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l.startsWith('!'))
  .map((l) => l.slice(1).replace(/\/$/, ''));

/** The context paths of every COPY that does not copy from another stage. */
function copiedFromContext(): string[] {
  const out: string[] = [];
  for (const line of dockerfile.split('\n')) {
    const m = /^COPY\s+(.+)$/.exec(line.trim());
    if (!m || /--from=/.test(m[1]!)) continue;
    const args = m[1]!.split(/\s+/).filter((a) => !a.startsWith('--'));
    out.push(...args.slice(0, -1));
  }
  return out;
}

describe('the image build context', () => {
  it('lets through every file and folder the Dockerfile copies from it', () => {
    const sources = copiedFromContext();
    expect(sources).toContain('scripts/build-editor.mjs');
    for (const src of sources) {
      const ok = allowed.some((a) => src === a || src.startsWith(`${a}/`));
      expect(ok, `${src} is copied by the Dockerfile but .dockerignore leaves it out of the context`).toBe(true);
      expect(fs.existsSync(path.join(root, src)), `${src} does not exist`).toBe(true);
    }
  });
});
