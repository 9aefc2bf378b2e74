import { describe, expect, it } from 'vitest';
import { gitCommit } from '../../../renderer/pipeline.js';
import { tempSite } from '../load/site-fixtures.js';

const sha = 'a'.repeat(40);
const other = 'b'.repeat(40);

describe('gitCommit (default export version)', () => {
  it('follows HEAD to a loose ref', () => {
    expect(gitCommit(tempSite({ '.git/HEAD': 'ref: refs/heads/main\n', '.git/refs/heads/main': `${sha}\n` }))).toBe(sha);
  });

  it('reads packed refs and detached heads', () => {
    expect(gitCommit(tempSite({ '.git/HEAD': 'ref: refs/heads/main\n', '.git/packed-refs': `# pack-refs\n${other} refs/heads/dev\n${sha} refs/heads/main\n` }))).toBe(sha);
    expect(gitCommit(tempSite({ '.git/HEAD': `${other}\n` }))).toBe(other);
  });

  it('is undefined without a repository', () => {
    expect(gitCommit(tempSite({ 'docs.json': '{}' }))).toBeUndefined();
  });
});
