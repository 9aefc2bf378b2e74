import type Database from 'better-sqlite3';
import type { RetrievalSection } from '../../renderer/retrieval/types.js';
import { matchExpression } from './match-query.js';
import type { Hit, Scope } from './protocol.js';

/** bm25 weights of title, heading and text: a heading's words say most about its section. */
const WEIGHTS = '1.5, 2.0, 1.0';
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
  const hits = db.prepare(`SELECT fts.rowid AS id, bm25(fts, ${WEIGHTS}) AS rank FROM fts JOIN sections s ON s.id = fts.rowid WHERE fts MATCH @match AND ${inScope} ORDER BY rank LIMIT @limit`);
  const byId = db.prepare('SELECT * FROM sections WHERE id = ?');
  const range = db.prepare('SELECT * FROM sections WHERE id >= ? ORDER BY id LIMIT ?');
  const scopeOf = db.prepare('SELECT language, version FROM sections WHERE path = ? LIMIT 1');
  const scopes = db.prepare(`SELECT s.id AS id FROM sections s WHERE ${inScope}`).pluck();
  const count = db.prepare('SELECT COUNT(*) FROM sections').pluck();
  const params = (scope: Scope) => ({ language: scope.language ?? null, version: scope.version ?? null });
  return {
    hits(query: string, scope: Scope, limit: number): Hit[] {
      const match = matchExpression(query);
      if (!match) return [];
      const rows = hits.all({ match, limit: Math.max(1, Math.min(MAX_HITS, Math.floor(limit))), ...params(scope) }) as { id: number; rank: number }[];
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
