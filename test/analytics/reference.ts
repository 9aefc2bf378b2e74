import { compareTerms } from '../../app/analytics/report.js';
import { seededRandom } from '../helpers/seeded-random.js';

/** An event as the tests generate it (the imported NDJSON form, with ms time). */
export interface RefEvent {
  type: 'search' | 'click';
  projectId: string;
  query: string;
  sessionId: string;
  atMs: number;
  resultCount?: number;
  path?: string;
}

export interface RefAggregate {
  searchQuery: string;
  hits: number;
  ctr: number;
  topClickedPage: string | null;
  lastSearchedAt: string;
}

const norm = (q: string) => q.normalize('NFC').trim().replace(/\s+/gu, ' ').toLowerCase();

/**
 * The report computed the obvious way, straight from the rules in docs/analytics.md, over a
 * list of events: O(n²) and independent of the rollups, the tracker and SQL.
 * Events must be given in the order they were imported (time order).
 */
export function bruteForce(events: readonly RefEvent[], projectId: string, fromMs: number | null, toMs: number | null): { searches: RefAggregate[]; totalSearches: number } {
  const mine = events.filter((e) => e.projectId === projectId);
  const sorted = [...mine].sort((a, b) => a.atMs - b.atMs || (a.type === b.type ? 0 : a.type === 'search' ? -1 : 1));
  // 1. Counted searches: the first of a (session, term) and any 30 s or more after the last counted.
  const counted: { term: string; session: string; atMs: number; clicked: boolean }[] = [];
  const lastCounted = new Map<string, (typeof counted)[number]>();
  const clicks: { term: string; path: string; atMs: number }[] = [];
  for (const e of sorted) {
    const term = norm(e.query);
    const key = `${e.sessionId}\u0000${term}`;
    if (e.type === 'search') {
      const last = lastCounted.get(key);
      if (last && e.atMs - last.atMs < 30_000) continue;
      const s = { term, session: e.sessionId, atMs: e.atMs, clicked: false };
      counted.push(s);
      lastCounted.set(key, s);
    } else {
      clicks.push({ term, path: e.path!, atMs: e.atMs });
      // 2. A click makes the latest counted search of its session and term, at most 30 min
      //    earlier, "clicked" (once).
      const last = lastCounted.get(key);
      if (last && e.atMs - last.atMs <= 30 * 60_000) last.clicked = true;
    }
  }
  const inRange = (ms: number) => (fromMs === null || ms >= fromMs) && (toMs === null || ms < toMs);
  const terms = new Map<string, { hits: number; clicked: number; last: number; pages: Map<string, number> }>();
  for (const s of counted) {
    if (!inRange(s.atMs)) continue;
    let t = terms.get(s.term);
    if (!t) terms.set(s.term, (t = { hits: 0, clicked: 0, last: 0, pages: new Map() }));
    t.hits++;
    if (s.clicked) t.clicked++;
    t.last = Math.max(t.last, s.atMs);
  }
  for (const c of clicks) {
    const t = terms.get(c.term);
    if (t && inRange(c.atMs)) t.pages.set(c.path, (t.pages.get(c.path) ?? 0) + 1);
  }
  const searches = [...terms.entries()].map(([term, t]) => {
    const pages = [...t.pages.entries()].sort((a, b) => b[1] - a[1] || compareTerms(a[0], b[0]));
    return {
      searchQuery: term,
      hits: t.hits,
      ctr: Math.round((t.clicked / t.hits) * 10_000) / 100,
      topClickedPage: pages[0]?.[0] ?? null,
      lastSearchedAt: new Date(t.last).toISOString(),
    };
  });
  searches.sort((a, b) => b.hits - a.hits || compareTerms(a.searchQuery, b.searchQuery));
  return { searches, totalSearches: searches.reduce((n, s) => n + s.hits, 0) };
}

/** A small deterministic PRNG (mulberry32) so a failing run can be replayed from its seed. */
export const rng = seededRandom;

const WORDS = ['install', 'rhel', 'proxy', 'Upgrade', 'backup', 'tls', 'ldap', 'helm', 'air gap', 'licence', 'ÉTÉ', 'café', 'api key', 'rate limit', 'webhooks'];
const PATHS = ['/guides/install', '/guides/upgrade', '/reference/api', '/faq', '/guides/tls', '/ops/backup'];

/**
 * Random visits: a session searches a term (with case and spacing variants, repeats inside and
 * outside the 30 s window) and sometimes clicks results, over `days` days from `startMs`.
 * Clicks never precede a search of their key by less than the 5 s skew (that race is tested on
 * its own), so the reference needs no orphan rule.
 */
export function randomEvents(seed: number, opts: { projectId: string; startMs: number; days: number; visits: number; otherProjectId?: string; sessionPrefix?: string }): RefEvent[] {
  const r = rng(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)]!;
  const out: RefEvent[] = [];
  for (let v = 0; v < opts.visits; v++) {
    const projectId = opts.otherProjectId && r() < 0.1 ? opts.otherProjectId : opts.projectId;
    const sessionId = `${opts.sessionPrefix ?? 's'}${Math.floor(r() * 60)}`;
    const base = pick(WORDS) + (r() < 0.3 ? ` ${pick(WORDS)}` : '');
    const variant = () => (r() < 0.5 ? base : `  ${base.toUpperCase().replace(' ', '   ')} `);
    let t = opts.startMs + Math.floor(r() * opts.days * 86_400_000);
    out.push({ type: 'search', projectId, query: variant(), sessionId, atMs: t, resultCount: Math.floor(r() * 20) });
    const extra = Math.floor(r() * 3);
    for (let i = 0; i < extra; i++) {
      t += r() < 0.5 ? Math.floor(r() * 29_000) : 30_000 + Math.floor(r() * 600_000);
      out.push({ type: 'search', projectId, query: variant(), sessionId, atMs: t, resultCount: Math.floor(r() * 20) });
    }
    const nClicks = r() < 0.5 ? 0 : 1 + Math.floor(r() * 2);
    for (let i = 0; i < nClicks; i++) {
      t += r() < 0.85 ? Math.floor(r() * 120_000) : 30 * 60_000 + Math.floor(r() * 600_000);
      out.push({ type: 'click', projectId, query: variant(), sessionId, atMs: t, path: pick(PATHS) });
    }
  }
  out.sort((a, b) => a.atMs - b.atMs);
  // Drop clicks followed within the skew by a search of the same key (see above).
  const norm2 = (e: RefEvent) => `${e.projectId}\u0000${e.sessionId}\u0000${norm(e.query)}`;
  return out.filter((e, i) => {
    if (e.type !== 'click') return true;
    for (let j = i + 1; j < out.length && out[j]!.atMs - e.atMs <= 5_000; j++) if (out[j]!.type === 'search' && norm2(out[j]!) === norm2(e)) return false;
    return true;
  });
}

/** The NDJSON lines of `analytics import` for events. */
export function toNdjson(events: readonly RefEvent[]): string {
  return (
    events
      .map((e) =>
        JSON.stringify(
          e.type === 'search'
            ? { type: 'search', projectId: e.projectId, query: e.query, resultCount: e.resultCount ?? 0, sessionId: e.sessionId, timestamp: new Date(e.atMs).toISOString() }
            : { type: 'click', projectId: e.projectId, query: e.query, path: e.path, sessionId: e.sessionId, timestamp: new Date(e.atMs).toISOString() },
        ),
      )
      .join('\n') + '\n'
  );
}
