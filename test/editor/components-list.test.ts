import { describe, expect, it } from 'vitest';
import { COMPONENT_NAMES, COMPONENT_SNIPPETS } from '../../app/editor/client/mintlify-components.js';
import { BUILTIN_COMPONENTS } from '../../renderer/page/components/index.js';
import { inFrontmatter } from '../../app/editor/client/completions.js';

/** The source mode's completion list is a browser-side copy of the renderer's registry (which imports Node code): the two stay equal. */
describe("the source mode's component completions", () => {
  it('name exactly the components the renderer knows', () => {
    expect([...COMPONENT_NAMES].sort()).toEqual(Object.keys(BUILTIN_COMPONENTS).sort());
  });

  it('have snippets only for known components, each opening with its own tag', () => {
    for (const [name, snippet] of Object.entries(COMPONENT_SNIPPETS)) {
      expect(COMPONENT_NAMES).toContain(name);
      expect(snippet.startsWith(`<${name}`)).toBe(true);
    }
  });

  it('offer frontmatter fields only inside the leading --- block', () => {
    const doc = '---\ntitle: A\n\n---\n\nBody\n';
    expect(inFrontmatter(doc, doc.indexOf('\n\n') + 1)).toBe(true);
    expect(inFrontmatter(doc, doc.indexOf('Body'))).toBe(false);
    expect(inFrontmatter('No frontmatter\n', 3)).toBe(false);
  });
});
