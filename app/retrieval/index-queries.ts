import type Database from 'better-sqlite3';
import type { RetrievalSection } from '../../renderer/retrieval/types.js';
import { matchExpression, queryTerms, scopedMatch } from './match-query.js';
import type { Hit, Scope } from './protocol.js';

/** bm25 weights of title, heading, text and scope: a heading's words say most about its section; scope words are filters only. */
const WEIGHTS = '1.5, 2.0, 1.0, 0.0';
/** Below this many sections every word of a query is scored: the whole index is small. */
export const MIN_SECTIONS_TO_PRUNE = 1_000;
/** Hits one query can return, whatever it asks: bounds the work of ranking and the reply's size. */
export const MAX_HITS = 200;

interface Row {
  id: number;
  path: string;
  url: string;
  title: string;
  heading: string;
  text: string;
  language: string | null;
  version: string | null;
}

function toSection(r: Row): RetrievalSection {
  return { path: r.path, url: r.url, title: r.title, heading: r.heading, text: r.text, ...(r.language !== null ? { language: r.language } : {}), ...(r.version !== null ? { version: r.version } : {}) };
}

/** The statements of one open bundle index; every query is bounded (LIMIT, MAX_HITS). */
export function indexQueries(db: Database.Database) {
  // A section without a language (or version) belongs to every scope, as before the index.
  const inScope = '(@language IS NULL OR s.language IS NULL OR s.language = @language) AND (@version IS NULL OR s.version IS NULL OR s.version = @version)';
  // Scope is part of the MATCH (scopedMatch): only sections in scope are scored at all.
  const hits = db.prepare(`SELECT rowid AS id, bm25(fts, ${WEIGHTS}) AS rank FROM fts WHERE fts MATCH @match ORDER BY rank LIMIT @limit`);
  const byId = db.prepare('SELECT * FROM sections WHERE id = ?');
  const range = db.prepare('SELECT * FROM sections WHERE id >= ? ORDER BY id LIMIT ?');
  const scopeOf = db.prepare('SELECT language, version FROM sections WHERE path = ? LIMIT 1');
  const scopes = db.prepare(`SELECT s.id AS id FROM sections s WHERE ${inScope}`).pluck();
  const count = db.prepare('SELECT COUNT(*) FROM sections').pluck();
  const params = (scope: Scope) => ({ language: scope.language ?? null, version: scope.version ?? null });
  const docs = db.prepare('SELECT doc FROM vocab WHERE term = ?').pluck();
  const total = Math.max(1, count.get() as number);
  /**
   * The words worth ranking by, which bounds a query's work by the rarer words' posting lists. A
   * word in more than half the sections adds nothing to bm25 (FTS5 clamps its IDF to ~0), yet
   * scoring it costs a pass over most of the index: on a site of MIN_SECTIONS_TO_PRUNE sections
   * or more it is dropped when a rarer word of the index is there, and when none is, only the
   * rarest common one is kept. A word the index does not hold as such is kept (as a prefix it
   * may match: "webhook" finds "webhooks"). Prefix matching is for words longer than three
   * characters that are not common themselves.
   */
  const chooseTerms = (query: string) => {
    const counted = queryTerms(query).map((term) => ({ term, df: (docs.get(term) as number | undefined) ?? 0 }));
    const common = (t: { df: number }) => total >= MIN_SECTIONS_TO_PRUNE && t.df > total / 2;
    const rare = counted.filter((t) => !common(t));
    const kept = rare.some((t) => t.df > 0) ? rare : [...rare, ...counted.filter(common).sort((x, y) => x.df - y.df).slice(0, 1)];
    return kept.map((t) => ({ term: t.term, prefix: t.term.length > 3 && !common(t) }));
  };
  return {
    hits(query: string, scope: Scope, limit: number): Hit[] {
      const words = matchExpression(chooseTerms(query));
      if (!words) return [];
      const rows = hits.all({ match: scopedMatch(words, scope), limit: Math.max(1, Math.min(MAX_HITS, Math.floor(limit))) }) as { id: number; rank: number }[];
      // bm25 is lower for better matches (negative): relative to the best, as the assistant expects.
      const best = rows[0]?.rank || -1;
      return rows.map((r) => ({ id: r.id, score: Math.round((r.rank / best) * 1000) / 1000 }));
    },
    sections(ids: number[]): RetrievalSection[] {
      return ids.flatMap((id) => {
        const r = byId.get(id) as Row | undefined;
        return r ? [toSection(r)] : [];
      });
    },
    range(offset: number, limit: number): RetrievalSection[] {
      return (range.all(offset, Math.min(limit, 1000)) as Row[]).map(toSection);
    },
    scopeOf(path: string): Scope | null {
      const r = scopeOf.get(path) as { language: string | null; version: string | null } | undefined;
      return r ? { ...(r.language !== null ? { language: r.language } : {}), ...(r.version !== null ? { version: r.version } : {}) } : null;
    },
    /** One byte per section, 1 when it is in scope: for ranking by meaning over the vectors. */
    scopeMask(scope: Scope): Uint8Array {
      const mask = new Uint8Array(count.get() as number);
      for (const id of scopes.iterate(params(scope)) as IterableIterator<number>) mask[id] = 1;
      return mask;
    },
  };
}
