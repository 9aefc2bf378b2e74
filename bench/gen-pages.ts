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

/** Where page `i` of the site lives (its slug), for the links pages write to each other. */
type SlugOf = (i: number) => string;

const tabsSlug: SlugOf = (i) => `section-${Math.floor(i / 250)}/page-${i}`;

function pageBody(i: number, pages: number, rand: () => number, slugOf: SlugOf = tabsSlug): string {
  const word = (): string => WORDS[Math.floor(rand() * WORDS.length)] as string;
  const sentence = (n = 12): string => {
    const w = Array.from({ length: n }, word);
    return `${w[0]?.charAt(0).toUpperCase()}${w.join(' ').slice(1)}.`;
  };
  const para = (): string => Array.from({ length: 4 }, () => sentence(10 + Math.floor(rand() * 8))).join(' ');
  const link = (): string => {
    const target = Math.floor(rand() * pages);
    return `[${word()} ${word()}](/${slugOf(target)})`;
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
  <Card title="${sentence(2).replace(/\.$/, '')}" icon="book" href="/${slugOf((i + 1) % pages)}">
    ${sentence(8)}
  </Card>
  <Card title="${sentence(2).replace(/\.$/, '')}" icon="code" href="/${slugOf((i + 2) % pages)}">
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

/**
 * The shapes the renderer bench exports (issue 18):
 * - `tabs`: tabs of 250 pages in groups of 25 (the original shape);
 * - `flat`: one tab of 20 groups × count/20 pages (20 × 500 at 10,000): the sidebar of the tab is
 *   the whole site;
 * - `i18n`: 16 languages × 10 versions, each with its share of the pages in groups of 26; page k
 *   has the same text in every version and language (as versioned docs mostly do), so a query
 *   matches the same page 160 times.
 */
export type SiteShape = 'tabs' | 'flat' | 'i18n';

export function generateShape(dir: string, count: number, shape: SiteShape): void {
  if (shape === 'tabs') generateSite(dir, count);
  else if (shape === 'flat') generateFlat(dir, count);
  else generateI18n(dir, count);
}

function writeDocsJson(dir: string, name: string, navigation: unknown): void {
  fs.writeFileSync(path.join(dir, 'docs.json'), JSON.stringify({ $schema: 'https://mintlify.com/docs.json', name, colors: { primary: '#2563eb' }, navigation }, null, 2));
}

function generateFlat(dir: string, count: number, seed = 42): void {
  const rand = rng(seed);
  const perGroup = Math.ceil(count / 20);
  const slugOf: SlugOf = (i) => `group-${Math.floor(i / perGroup)}/page-${i}`;
  const groups: { group: string; pages: string[] }[] = [];
  for (let n = 0; n < count; n++) {
    const slug = slugOf(n);
    fs.mkdirSync(path.join(dir, path.dirname(slug)), { recursive: true });
    fs.writeFileSync(path.join(dir, `${slug}.mdx`), pageBody(n, count, rand, slugOf));
    (groups[Math.floor(n / perGroup)] ??= { group: `Group ${Math.floor(n / perGroup)}`, pages: [] }).pages.push(slug);
  }
  writeDocsJson(dir, `Flat ${count}`, { tabs: [{ tab: 'Docs', groups }] });
}

export const I18N_LANGUAGES = ['en', 'fr', 'de', 'es', 'it', 'pt', 'nl', 'sv', 'pl', 'cs', 'ja', 'ko', 'zh', 'ru', 'tr', 'id'];
export const I18N_VERSIONS = Array.from({ length: 10 }, (_, v) => `v${10 - v}`);

function generateI18n(dir: string, count: number, seed = 42): void {
  const scopes = I18N_LANGUAGES.length * I18N_VERSIONS.length;
  const languages = I18N_LANGUAGES.map((language, l) => ({
    language,
    versions: I18N_VERSIONS.map((version, v) => {
      const s = l * I18N_VERSIONS.length + v;
      const pages = Math.floor(count / scopes) + (s < count % scopes ? 1 : 0);
      const slugOf: SlugOf = (k) => `${language}/${version}/page-${k}`;
      fs.mkdirSync(path.join(dir, language, version), { recursive: true });
      const groups: { group: string; pages: string[] }[] = [];
      for (let k = 0; k < pages; k++) {
        // Seeded by k alone: page k reads the same in every version and language.
        fs.writeFileSync(path.join(dir, `${slugOf(k)}.mdx`), pageBody(k, pages, rng(seed + k), slugOf));
        (groups[Math.floor(k / 26)] ??= { group: `Group ${Math.floor(k / 26)}`, pages: [] }).pages.push(slugOf(k));
      }
      return { version, groups };
    }),
  }));
  writeDocsJson(dir, `Languages and versions ${count}`, { languages });
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
  const [dir, count, shape = 'tabs'] = process.argv.slice(2);
  if (!dir || !count || !['tabs', 'flat', 'i18n'].includes(shape)) {
    console.error('usage: node --import tsx bench/gen-pages.ts <dir> <count> [tabs|flat|i18n]');
    process.exit(2);
  }
  generateShape(dir, Number(count), shape as SiteShape);
  console.log(`generated ${count} pages in ${dir}`);
}
