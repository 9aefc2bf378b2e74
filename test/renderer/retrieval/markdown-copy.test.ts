import { describe, expect, it } from 'vitest';
import { pageMarkdown } from '../../../renderer/retrieval/markdown.js';

describe('the Markdown copy of a page', () => {
  it('drops module lines outside code only, by the fence rule the renderer uses', () => {
    const source = [
      '---',
      'title: T',
      '---',
      '```custom_id``` is inline code, not a fence.',
      '',
      "import Cta from '/snippets/cta.mdx';",
      '',
      '~~~js',
      "import kept from 'kept';",
      '```',
      "import stillKept from 'kept';",
      '~~~',
      '',
      '<Cta />',
    ].join('\n');
    const md = pageMarkdown({ title: 'T', source, fallbackText: '' });
    expect(md).not.toContain("import Cta from '/snippets/cta.mdx';");
    expect(md).toContain("import kept from 'kept';");
    expect(md).toContain("import stillKept from 'kept';");
    expect(md).toContain('```custom_id``` is inline code');
  });
});
