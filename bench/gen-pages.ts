import fs from 'node:fs';
import path from 'node:path';

/**
 * Generate a docs site of N realistic pages (~4 KB of MDX each: frontmatter, headings, lists, a
 * table, code blocks, links, a few Mintlify components) with a docs.json of tabs and groups.
 * Deterministic (seeded), so runs compare like with like.
 *
 *   node --import tsx bench/gen-pages.ts <dir> <count>
 */

const WORDS = (
  'pipeline worker request response cache token index search render layout bundle deploy config ' +
  'section page group tab anchor version language product menu sidebar header footer widget client ' +
  'server queue stream batch memory thread latency throughput schema field value option default'
).split(' ');

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function pageBody(i: number, pages: number, rand: () => number): string {
  const word = (): string => WORDS[Math.floor(rand() * WORDS.length)] as string;
  const sentence = (n = 12): string => {
    const w = Array.from({ length: n }, word);
    return `${w[0]?.charAt(0).toUpperCase()}${w.join(' ').slice(1)}.`;
  };
  const para = (): string => Array.from({ length: 4 }, () => sentence(10 + Math.floor(rand() * 8))).join(' ');
  const link = (): string => {
    const target = Math.floor(rand() * pages);
    return `[${word()} ${word()}](/section-${Math.floor(target / 250)}/page-${target})`;
  };
  return `---
title: "${sentence(4).replace(/\.$/, '')} ${i}"
description: "${sentence(10)}"
---

${para()} See ${link()} and ${link()}.

## Overview of ${word()} ${word()}

${para()}

- ${sentence(6)}
- ${sentence(7)} ${link()}
- ${sentence(5)}
  - ${sentence(4)}

<Note>
  ${sentence(14)}
</Note>

### Configuration

| Option | Type | Default | Description |
|---|---|---|---|
| \`${word()}\` | string | \`"${word()}"\` | ${sentence(6)} |
| \`${word()}\` | number | \`${Math.floor(rand() * 100)}\` | ${sentence(7)} |
| \`${word()}\` | boolean | \`false\` | ${sentence(5)} |

\`\`\`ts
import { ${word()} } from '@acme/${word()}';

export async function handle${i}(input: string): Promise<number> {
  const ${word()}Value = await ${word()}(input, { retries: ${Math.floor(rand() * 5)} });
  return ${word()}Value.length;
}
\`\`\`

## Using the ${word()}

${para()}

1. ${sentence(8)}
2. ${sentence(9)}
3. ${sentence(6)}

<CardGroup cols={2}>
  <Card title="${sentence(2).replace(/\.$/, '')}" icon="book" href="/section-${Math.floor(((i + 1) % pages) / 250)}/page-${(i + 1) % pages}">
    ${sentence(8)}
  </Card>
  <Card title="${sentence(2).replace(/\.$/, '')}" icon="code" href="/section-${Math.floor(((i + 2) % pages) / 250)}/page-${(i + 2) % pages}">
    ${sentence(8)}
  </Card>
</CardGroup>

\`\`\`bash
curl -X POST https://api.example.com/v1/${word()} -d '{"${word()}": true}'
\`\`\`

${para()}

### Troubleshooting

${para()} ${link()}.

${para()}
`;
}

export function generateSite(dir: string, count: number, seed = 42): void {
  const rand = rng(seed);
  fs.mkdirSync(dir, { recursive: true });
  // Sections of about 250 pages in groups of 25, as large sites are cut (by tab, version or
  // language): the sidebar every page carries stays the size of one section, not of the site.
  const perSection = Math.min(250, count);
  const sections = Math.ceil(count / perSection);
  const tabs: { tab: string; groups: { group: string; pages: string[] }[] }[] = [];
  let n = 0;
  for (let s = 0; s < sections && n < count; s++) {
    fs.mkdirSync(path.join(dir, `section-${s}`), { recursive: true });
    const groups: { group: string; pages: string[] }[] = [];
    for (let k = 0; k < perSection && n < count; k++, n++) {
      const slug = `section-${s}/page-${n}`;
      fs.writeFileSync(path.join(dir, `${slug}.mdx`), pageBody(n, count, rand));
      const g = Math.floor(k / 25);
      (groups[g] ??= { group: `Group ${s}.${g}`, pages: [] }).pages.push(slug);
    }
    tabs.push({ tab: `Section ${s}`, groups });
  }
  fs.writeFileSync(
    path.join(dir, 'docs.json'),
    JSON.stringify({ $schema: 'https://mintlify.com/docs.json', name: `Generated ${count}`, colors: { primary: '#2563eb' }, navigation: { tabs } }, null, 2),
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [dir, count] = process.argv.slice(2);
  if (!dir || !count) {
    console.error('usage: node --import tsx bench/gen-pages.ts <dir> <count>');
    process.exit(2);
  }
  generateSite(dir, Number(count));
  console.log(`generated ${count} pages in ${dir}`);
}
