/**
 * Random edits of a docs repository, the kinds a writer makes between two publishes: a page's
 * text, its title, a new page, a rename, a deletion, a page moved in the navigation, a snippet's
 * text, a new utility class, an image changed, the site's name. Used by the render memo's
 * equality check (test/renderer/memo/, scripts/memo-equality/run.ts): after each edit an export
 * with the memo must equal a full export of the same tree.
 *
 * Works on any docs.json or mint.json repository: the navigation is edited wherever it holds a
 * `pages` list of page paths, whatever the shape around it (tabs, anchors, languages, versions).
 */
import fs from 'node:fs';
import path from 'node:path';

/** The same seed gives the same edits, so a failure can be replayed. */
export { seededRandom as seeded } from '../../test/helpers/seeded-random.js';

export const EDIT_KINDS = ['body', 'same-size', 'title', 'add', 'rename', 'delete', 'move', 'snippet', 'class', 'image', 'name'] as const;
export type EditKind = (typeof EDIT_KINDS)[number];

type Json = Record<string, unknown>;
interface PagesList {
  list: unknown[];
  index: number;
}

const WORDS = ['gateway', 'replica', 'bundle', 'offline', 'signed', 'mirror', 'review', 'token', 'widget', 'harbor'];

export class RepoEditor {
  private readonly configName: string;
  private n = 0;

  constructor(
    readonly root: string,
    private readonly random: () => number,
  ) {
    this.configName = fs.existsSync(path.join(root, 'docs.json')) ? 'docs.json' : 'mint.json';
  }

  /** Apply one edit of `kind` (or of a random kind); returns what was done, or undefined if the repository has nothing to edit that way. */
  apply(kind: EditKind = this.pick(EDIT_KINDS) ?? 'body'): string | undefined {
    this.n++;
    switch (kind) {
      case 'body':
        return this.onPage((file) => {
          fs.appendFileSync(file, `\n\nMemo edit ${this.n}: ${this.words(6)}.\n`);
          return `appended a paragraph to ${this.rel(file)}`;
        });
      case 'same-size':
        // One letter of a prose line for the next one: the file keeps its size.
        return this.onPage((file) => {
          const text = fs.readFileSync(file, 'utf8');
          const lines = text.split('\n');
          const bodyStart = text.startsWith('---\n') ? lines.indexOf('---', 1) + 1 : 0;
          for (let l = lines.length - 1; l >= bodyStart; l--) {
            const line = lines[l]!;
            if (/[<>{}`|]|^\s*(import|export)\b/.test(line)) continue;
            const i = line.search(/[a-y][^a-y]*$/);
            if (i < 0) continue;
            lines[l] = line.slice(0, i) + String.fromCharCode(line.charCodeAt(i) + 1) + line.slice(i + 1);
            fs.writeFileSync(file, lines.join('\n'));
            return `changed one letter of ${this.rel(file)}`;
          }
          return `left ${this.rel(file)} as it was (no prose line)`;
        });
      case 'title':
        return this.onPage((file) => {
          const text = fs.readFileSync(file, 'utf8');
          const title = `Retitled ${this.n} ${this.words(1)}`;
          const next = /^---\n[\s\S]*?^title:.*$/m.test(text)
            ? text.replace(/^(---\n[\s\S]*?)^title:.*$/m, `$1title: "${title}"`)
            : text.startsWith('---\n')
              ? text.replace('---\n', `---\ntitle: "${title}"\n`)
              : `---\ntitle: "${title}"\n---\n\n${text}`;
          fs.writeFileSync(file, next);
          return `retitled ${this.rel(file)}`;
        });
      case 'add': {
        const at = this.pick(this.lists());
        if (!at) return undefined;
        const slug = `memo-added-${this.n}`;
        fs.writeFileSync(path.join(this.root, `${slug}.mdx`), `---\ntitle: "Added ${this.n}"\n---\n\nA page added by edit ${this.n}: ${this.words(8)}.\n`);
        at.list.splice(at.index, 0, slug);
        this.saveConfig();
        return `added ${slug}.mdx`;
      }
      case 'rename': {
        const at = this.pick(this.pageEntries());
        if (!at) return undefined;
        const slug = at.list[at.index] as string;
        const from = this.fileOf(slug)!;
        const renamed = `${slug}-r${this.n}`;
        fs.renameSync(from, path.join(this.root, renamed + path.extname(from)));
        this.replaceEverywhere(slug, renamed);
        return `renamed ${slug} to ${renamed}`;
      }
      case 'delete': {
        const entries = this.pageEntries();
        if (entries.length < 3) return undefined;
        const at = this.pick(entries)!;
        const slug = at.list[at.index] as string;
        fs.rmSync(this.fileOf(slug)!);
        this.replaceEverywhere(slug, undefined);
        return `deleted ${slug}`;
      }
      case 'move': {
        const from = this.pick(this.pageEntries());
        const lists = this.lists();
        if (!from || lists.length < 2) return undefined;
        const [slug] = from.list.splice(from.index, 1);
        const to = this.pick(lists)!;
        to.list.splice(Math.min(to.index, to.list.length), 0, slug);
        this.saveConfig();
        return `moved ${String(slug)}`;
      }
      case 'snippet': {
        const snippets = this.files((rel) => /^snippets\/.*\.mdx$/.test(rel));
        const file = this.pick(snippets);
        if (!file) return undefined;
        fs.appendFileSync(file, `\n\nSnippet edit ${this.n}: ${this.words(5)}.\n`);
        return `edited ${this.rel(file)}`;
      }
      case 'class':
        return this.onPage((file) => {
          fs.appendFileSync(file, `\n\n<div className="mt-[${this.n + 3}px] text-teal-700">Styled by edit ${this.n}</div>\n`);
          return `added a utility class to ${this.rel(file)}`;
        });
      case 'image': {
        const file = this.pick(this.files((rel) => rel.endsWith('.svg')));
        if (!file) return undefined;
        fs.appendFileSync(file, `\n<!-- edit ${this.n} -->\n`);
        return `changed ${this.rel(file)}`;
      }
      case 'name': {
        const config = this.config();
        config['name'] = `${String(config['name'] ?? 'Docs')} ${this.n}`;
        this.saveConfig(config);
        return 'renamed the site';
      }
    }
  }

  private cached: Json | undefined;

  private config(): Json {
    this.cached ??= JSON.parse(fs.readFileSync(path.join(this.root, this.configName), 'utf8')) as Json;
    return this.cached;
  }

  private saveConfig(config = this.config()): void {
    fs.writeFileSync(path.join(this.root, this.configName), `${JSON.stringify(config, null, 2)}\n`);
  }

  /** Every `pages` list of the navigation, with a random position in it. */
  private lists(): PagesList[] {
    const out: PagesList[] = [];
    const walk = (v: unknown): void => {
      if (Array.isArray(v)) return v.forEach(walk);
      if (!v || typeof v !== 'object') return;
      for (const [k, child] of Object.entries(v as Json)) {
        if (k === 'pages' && Array.isArray(child)) out.push({ list: child, index: Math.floor(this.random() * (child.length + 1)) });
        walk(child);
      }
    };
    walk(this.config()['navigation']);
    return out;
  }

  /** Entries of `pages` lists that name a page file of the repository. */
  private pageEntries(): PagesList[] {
    const out: PagesList[] = [];
    for (const { list } of this.lists()) list.forEach((entry, index) => typeof entry === 'string' && this.fileOf(entry) && out.push({ list, index }));
    return out;
  }

  private fileOf(slug: string): string | undefined {
    for (const ext of ['.mdx', '.md']) {
      const file = path.join(this.root, slug.replace(/^\//, '') + ext);
      if (fs.existsSync(file)) return file;
    }
    return undefined;
  }

  /** Rename (or remove, with `to` undefined) a page in every `pages` list. */
  private replaceEverywhere(slug: string, to: string | undefined): void {
    for (const { list } of this.lists()) {
      for (let i = list.length - 1; i >= 0; i--) {
        if (list[i] !== slug) continue;
        if (to === undefined) list.splice(i, 1);
        else list[i] = to;
      }
    }
    this.saveConfig();
  }

  private onPage(edit: (file: string) => string): string | undefined {
    const at = this.pick(this.pageEntries());
    return at ? edit(this.fileOf(at.list[at.index] as string)!) : undefined;
  }

  private files(match: (rel: string) => boolean): string[] {
    const out: string[] = [];
    const walk = (dir: string): void => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        if (e.name === '.git' || e.name === 'node_modules') continue;
        const abs = path.join(dir, e.name);
        if (e.isDirectory()) walk(abs);
        else if (e.isFile() && match(this.rel(abs))) out.push(abs);
      }
    };
    walk(this.root);
    return out.sort();
  }

  private rel(file: string): string {
    return path.relative(this.root, file).split(path.sep).join('/');
  }

  private pick<T>(items: readonly T[]): T | undefined {
    return items.length ? items[Math.floor(this.random() * items.length)] : undefined;
  }

  private words(n: number): string {
    return Array.from({ length: n }, () => this.pick(WORDS)).join(' ');
  }
}
