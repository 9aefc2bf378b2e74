/** GitHub-style heading slugs (as github-slugger): lowercase, punctuation dropped, spaces to dashes. */
const STRIP_RE = /[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu;
const SPACE_RE = / /g;

export function slugify(text: string): string {
  return text.trim().toLowerCase().replace(STRIP_RE, '').replace(SPACE_RE, '-');
}

/** Hands out unique ids in document order: `intro`, `intro-1`, `intro-2`. */
export class Slugger {
  private readonly seen = new Map<string, number>();

  unique(base: string): string {
    let id = base === '' ? 'section' : base;
    let n = this.seen.get(id);
    if (n !== undefined) {
      let candidate: string;
      do {
        n++;
        candidate = `${id}-${n}`;
      } while (this.seen.has(candidate));
      this.seen.set(id, n);
      id = candidate;
    }
    this.seen.set(id, 0);
    return id;
  }

  reserve(id: string): void {
    if (!this.seen.has(id)) this.seen.set(id, 0);
  }
}
