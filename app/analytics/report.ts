import type { SearchReportStore, DeltaRow, RollupColumns } from '../../data/stores/search-report.js';
import { DAY_MS } from './normalise.js';
import { SESSION_RULES } from './sessions.js';
import { CURSOR_TTL_MS } from './cursor.js';

/** One element of `searches` (DESIGN 3.3). */
export interface SearchAggregate {
  searchQuery: string;
  hits: number;
  ctr: number;
  topClickedPage: string | null;
  lastSearchedAt: string;
}

export interface ReportRange {
  /** Inclusive lower bound in ms, or null for unbounded. */
  fromMs: number | null;
  /** Exclusive upper bound in ms, or null for unbounded. */
  toMs: number | null;
}

/** Where the previous page ended, in the report's order (hits descending, term ascending). */
export interface PageKey {
  hits: number;
  norm: string;
}

export interface ReportPage {
  searches: SearchAggregate[];
  totalSearches: number;
  /** The key to continue after, or null on the last page. */
  next: PageKey | null;
  /** The ingest sequence the page was computed at (the first page's is carried by the cursor). */
  maxId: number;
}

interface Ranked {
  termId: number;
  norm: string;
  hits: number;
  clicked: number;
  lastAt: number | null;
  /** Its last search may be one made after the pin: recompute lastSearchedAt from raw events. */
  dirty: boolean;
}

/** Aggregates of a range at a pin (parallel arrays); slots with no hits are skipped. */
interface Ranking {
  /** The term id of each slot; null: slot i is term i. */
  ids: Int32Array | null;
  hits: Int32Array;
  clicked: Int32Array;
  lastAt: Float64Array;
  dirty: Uint8Array;
  total: number;
}

/**
 * All-time totals per term id, in memory, as of the event id `maxId`: loaded from
 * `search_terms` and advanced by the events stored since, so the all-time report ranks 100,000
 * terms with no index kept at ingest (migration 005).
 */
interface AllTimeState {
  maxId: number;
  /** Identity of the event `maxId` ("at:kind:term"): a changed one means the id was reused. */
  maxIdentity: string | null;
  loadedAt: number;
  hits: Int32Array;
  clicked: Int32Array;
  lastAt: Float64Array;
}

/** Least-recently-used entries, each valid while its version stays the one it was loaded at. */
function versionedCache<V extends { version: number }>(limit: number) {
  const entries = new Map<string, V>();
  return {
    get(key: string, version: number, load: () => V): V {
      const hit = entries.get(key);
      if (hit && hit.version === version) {
        entries.delete(key);
        entries.set(key, hit);
        return hit;
      }
      const v = load();
      entries.set(key, v);
      while (entries.size > limit) entries.delete(entries.keys().next().value!);
      return v;
    },
    clear: () => entries.clear(),
  };
}

interface DayVector extends RollupColumns {
  version: number;
}

/** One hour's rollup rows as columns, with their sum of hits (the hour's searches). */
interface HourVector extends DayVector {
  total: number;
}

const HOUR_MS = 3_600_000;

/** Projects whose all-time totals stay in memory. */
const ALL_TIME_PROJECTS = 4;

// Beyond any real timestamp, and whole days, so that "unbounded" is a plain range.
const MIN_DAY = -100_000_000;
const MAX_DAY = 100_000_000;
const MIN_MS = MIN_DAY * DAY_MS;
const MAX_MS = MAX_DAY * DAY_MS;

/** SQLite's BINARY order (UTF-8 bytes) = code point order; JS `<` compares UTF-16 units. */
export function compareTerms(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // Surrogates (astral code points) sort after every other BMP unit in UTF-8.
    const xs = x >= 0xd800 && x <= 0xdfff;
    const ys = y >= 0xd800 && y <= 0xdfff;
    if (xs !== ys) return xs ? 1 : -1;
    return x - y;
  }
  return a.length - b.length;
}


export const ctrPercent = (clicked: number, hits: number) => (hits > 0 ? Math.min(100, Math.round((clicked / hits) * 10_000) / 100) : 0);

/**
 * The report: whole UTC days come from the daily rollups, the partial days at the edges of the
 * range from raw events, and everything stored after the pin is subtracted, so the pages of one
 * cursor chain all describe the data as of the first page (docs/analytics.md).
 */
export function createReportService(
  store: SearchReportStore,
  opts: { cacheEntries?: number; cacheTtlMs?: number; dayCacheEntries?: number; hourCacheEntries?: number; now?: () => number; allTimeCatchUpMax?: number } = {},
) {
  const clickWindow = { beforeMs: SESSION_RULES.clickSkewMs, afterMs: SESSION_RULES.clickWindowMs + 1 };
  const cacheEntries = opts.cacheEntries ?? 4;
  const cacheTtlMs = opts.cacheTtlMs ?? 10 * 60_000;
  const now = opts.now ?? (() => Date.now());
  const dayCacheEntries = opts.dayCacheEntries ?? 45;
  // Two partial days of 23 whole hours each, twice over: a week with partial edges and the
  // same week shifted a day.
  const hourCacheEntries = opts.hourCacheEntries ?? 96;
  // Past this many new events (an import), reloading every term's totals is cheaper than
  // replaying the events one by one.
  const allTimeCatchUpMax = opts.allTimeCatchUpMax ?? 200_000;
  // Reloaded at least this often: retention deletes only events below a fence set a cursor's
  // lifetime earlier, so a state younger than that never misses an event it has not read yet.
  const allTimeMaxAgeMs = CURSOR_TTL_MS / 2;
  // Rankings of bounded ranges at a given pin: facts that do not change, so pages 2..n of a
  // cursor chain (and repeated identical reports while nothing new arrives) reuse them.
  const cache = new Map<string, { at: number; ranking: Ranking }>();

  function split(r: ReportRange) {
    const from = r.fromMs ?? MIN_MS;
    const to = r.toMs ?? MAX_MS;
    let day0 = Math.ceil(from / DAY_MS);
    let day1 = Math.floor(to / DAY_MS);
    const edges: [number, number][] = [];
    if (day0 >= day1) {
      day0 = day1 = 0;
      edges.push([from, to]);
    } else {
      if (from < day0 * DAY_MS) edges.push([from, day0 * DAY_MS]);
      if (day1 * DAY_MS < to) edges.push([day1 * DAY_MS, to]);
    }
    // A partial day: its whole hours from the hourly rollups, what is left (at most an hour at
    // each end) from raw events.
    const hours: [number, number][] = [];
    const raws: [number, number][] = [];
    for (const [a, b] of edges) {
      const h0 = Math.ceil(a / HOUR_MS);
      const h1 = Math.floor(b / HOUR_MS);
      if (h0 < h1) {
        hours.push([h0, h1]);
        if (a < h0 * HOUR_MS) raws.push([a, h0 * HOUR_MS]);
        if (h1 * HOUR_MS < b) raws.push([h1 * HOUR_MS, b]);
      } else raws.push([a, b]);
    }
    const inDays = (ms: number) => day0 < day1 && ms >= day0 * DAY_MS && ms < day1 * DAY_MS;
    /** Whether an event at `ms` is counted by a rollup (whole day or whole hour) of the range. */
    const inRollups = (ms: number) => inDays(ms) || hours.some(([h0, h1]) => ms >= h0 * HOUR_MS && ms < h1 * HOUR_MS);
    return { from, to, day0, day1, edges, hours, raws, inDays, inRollups };
  }

  // One day's rollup rows as columns, kept while the day's version is unchanged: a closed day
  // never changes (unless late events or an import touch it, which bumps the version), so a
  // week's report adds seven cached vectors instead of reading hundreds of thousands of rows.
  const dayCache = versionedCache<DayVector>(dayCacheEntries);
  const dayVector = (pk: number, day: number, version: number): DayVector =>
    dayCache.get(`${pk}:${day}`, version, () => ({ version, ...store.dayRows(pk, day) }));

  // Whole hours of partial days, likewise: a past hour changes only by late beacons (up to
  // 24 h old) or an import, which bump its version, so while events arrive mostly the current
  // hour is reread.
  const hourCache = versionedCache<HourVector>(hourCacheEntries);
  const hourVector = (pk: number, hour: number, version: number): HourVector =>
    hourCache.get(`${pk}:${hour}`, version, () => {
      const rows = store.hourRows(pk, hour);
      let total = 0;
      for (let i = 0; i < rows.hits.length; i++) total += rows.hits[i]!;
      return { version, total, ...rows };
    });

  // Term id → normalised term, loaded incrementally (ids only grow): ranking works on ids.
  const norms: string[] = [];
  let lastTermId = 0;
  function refreshTerms(): void {
    for (const [id, norm] of store.termsAfter(lastTermId)) {
      norms[id] = norm;
      lastTermId = id;
    }
  }
  const normOf = (id: number) => norms[id] ?? '';

  const allTime = new Map<number, AllTimeState>(); // least recently reported first
  const grow = <T extends Int32Array | Float64Array>(a: T, size: number, fill: number): T => {
    if (a.length >= size) return a;
    const b = new (a.constructor as new (n: number) => T)(Math.max(size, a.length * 2));
    b.fill(fill);
    b.set(a);
    return b;
  };

  /** The project's all-time totals as of `maxId` (the snapshot's newest event). */
  function allTimeAt(pk: number, maxId: number): AllTimeState {
    const size = lastTermId + 1;
    let st = allTime.get(pk);
    const stale =
      !st ||
      maxId < st.maxId ||
      maxId - st.maxId > allTimeCatchUpMax ||
      now() - st.loadedAt > allTimeMaxAgeMs ||
      (st.maxId > 0 && store.eventIdentity(st.maxId) !== st.maxIdentity);
    if (stale) {
      st = { maxId, maxIdentity: null, loadedAt: now(), hits: new Int32Array(size), clicked: new Int32Array(size), lastAt: new Float64Array(size).fill(-Infinity) };
      for (const [id, h, c, l] of store.termTotals(pk)) {
        st.hits[id] = h;
        st.clicked[id] = c;
        st.lastAt[id] = l ?? -Infinity;
      }
      allTime.delete(pk);
      allTime.set(pk, st);
      // The arrays are indexed by term id, and term ids are shared by all projects: 16 bytes per
      // term of the whole database per project kept. Keep the projects reported on last.
      while (allTime.size > ALL_TIME_PROJECTS) allTime.delete(allTime.keys().next().value!);
    } else {
      allTime.delete(pk);
      allTime.set(pk, st!);
    }
    st = st!;
    st.hits = grow(st.hits, size, 0);
    st.clicked = grow(st.clicked, size, 0);
    st.lastAt = grow(st.lastAt, size, -Infinity);
    if (st.maxId < maxId) {
      for (const d of store.eventsBetween(pk, st.maxId, maxId)) {
        if (d.kind === 0) {
          st.hits[d.termId]!++;
          if (d.atMs > st.lastAt[d.termId]!) st.lastAt[d.termId] = d.atMs;
        } else if (d.countsCtr) st.clicked[d.termId]!++;
      }
      st.maxId = maxId;
    }
    st.maxIdentity = maxId > 0 ? store.eventIdentity(maxId) : null;
    return st;
  }

  // Per-term sums are computed in these arrays, reused from request to request (computing is
  // synchronous): allocating four arrays of 100,000 terms per report fed the collector enough
  // to show in the p99. Only the compacted ranking that may be cached is allocated.
  const scratch = { hits: new Int32Array(0), clicked: new Int32Array(0), lastAt: new Float64Array(0), dirty: new Uint8Array(0), zeros: new Uint8Array(0) };
  function scratchFor(size: number) {
    if (scratch.hits.length < size) {
      const cap = Math.max(size, scratch.hits.length * 2, 1024);
      Object.assign(scratch, { hits: new Int32Array(cap), clicked: new Int32Array(cap), lastAt: new Float64Array(cap), dirty: new Uint8Array(cap), zeros: new Uint8Array(cap) });
    }
    return scratch;
  }

  /** The ranking of a range at a pin, and whether it may be cached (not a view of live totals). */
  function computeRanking(pk: number, r: ReportRange, maxId: number, delta: DeltaRow[]): { ranking: Ranking; cacheable: boolean } {
    const s = split(r);
    refreshTerms();
    const size = lastTermId + 1;
    const w = scratchFor(size);
    const hits = w.hits.subarray(0, size);
    const clicked = w.clicked.subarray(0, size);
    const lastAt = w.lastAt.subarray(0, size);
    const dirty = w.dirty.subarray(0, size);
    dirty.fill(0);
    let total = 0;
    if (r.fromMs === null && r.toMs === null) {
      // All time: the in-memory totals at the newest event, less the pin's delta.
      const st = allTimeAt(pk, store.maxId());
      total = store.daysTotal(pk, MIN_DAY, MAX_DAY);
      if (!delta.length) {
        // A first page: rank the live totals in place (no copy; not cached, they move on).
        const zeros = w.zeros.subarray(0, size);
        return { ranking: { ids: null, hits: st.hits.subarray(0, size), clicked: st.clicked.subarray(0, size), lastAt: st.lastAt.subarray(0, size), dirty: zeros, total }, cacheable: false };
      }
      hits.set(st.hits.subarray(0, size));
      clicked.set(st.clicked.subarray(0, size));
      lastAt.set(st.lastAt.subarray(0, size));
    } else {
      hits.fill(0);
      clicked.fill(0);
      lastAt.fill(-Infinity);
    }
    const add = ({ termIds, hits: h, clicked: c, lastAt: l }: RollupColumns): void => {
      for (let i = 0; i < termIds.length; i++) {
        const t = termIds[i]!;
        hits[t]! += h[i]!;
        clicked[t]! += c[i]!;
        if (l[i]! > lastAt[t]!) lastAt[t] = l[i]!;
      }
    };
    if (s.day0 < s.day1 && !(r.fromMs === null && r.toMs === null)) {
      for (const [day, version] of store.dayVersions(pk, s.day0, s.day1)) add(dayVector(pk, day, version));
      total += store.daysTotal(pk, s.day0, s.day1);
    }
    for (const [h0, h1] of s.hours) {
      for (const [hour, version] of store.hourVersions(pk, h0, h1)) {
        const v = hourVector(pk, hour, version);
        add(v);
        total += v.total;
      }
    }
    for (const [a, b] of s.raws) {
      for (const [t, at] of store.rawSearches(pk, a, b, maxId)) {
        hits[t]!++;
        if (at > lastAt[t]!) lastAt[t] = at;
        total++;
      }
      for (const row of store.rawClickedByTerm(pk, a, b, clickWindow, maxId)) clicked[row.termId]! += row.clicked;
    }
    for (const d of delta) {
      if (d.termId >= size) continue; // a term created after the pin holds nothing before it
      if (d.kind === 0 && s.inRollups(d.atMs)) {
        hits[d.termId]!--;
        dirty[d.termId] = 1;
        total--;
      } else if (d.kind === 1 && d.countsCtr && d.searchAtMs !== null && s.inRollups(d.searchAtMs)) {
        clicked[d.termId]!--;
      }
    }
    let n = 0;
    for (let t = 0; t < size; t++) if (hits[t]! > 0) n++;
    const out = { ids: new Int32Array(n), hits: new Int32Array(n), clicked: new Int32Array(n), lastAt: new Float64Array(n), dirty: new Uint8Array(n), total };
    let i = 0;
    for (let t = 0; t < size; t++) {
      if (hits[t]! <= 0) continue;
      out.ids[i] = t;
      out.hits[i] = hits[t]!;
      out.clicked[i] = clicked[t]!;
      out.lastAt[i] = lastAt[t]!;
      out.dirty[i] = dirty[t]!;
      i++;
    }
    return { ranking: out, cacheable: true };
  }

  /**
   * The `limit + 1` best entries after `key`, in report order: one pass with a small sorted
   * buffer (no full sort of 100,000 terms per page); terms are compared only on equal hits.
   */
  function selectPage(r: Ranking, limit: number, key: PageKey | undefined): Ranked[] {
    const want = limit + 1;
    const top: number[] = []; // indexes into r, best first
    const ids = r.ids;
    const idOf = (i: number) => (ids ? ids[i]! : i);
    const better = (i: number, j: number) => r.hits[i]! > r.hits[j]! || (r.hits[i] === r.hits[j] && compareTerms(normOf(idOf(i)), normOf(idOf(j))) < 0);
    for (let i = 0; i < r.hits.length; i++) {
      const h = r.hits[i]!;
      if (h <= 0) continue;
      if (key && (h > key.hits || (h === key.hits && compareTerms(normOf(idOf(i)), key.norm) <= 0))) continue;
      if (top.length === want) {
        const worst = top[want - 1]!;
        if (h < r.hits[worst]! || !better(i, worst)) continue;
        top.pop();
      }
      let pos = top.length;
      while (pos > 0 && better(i, top[pos - 1]!)) pos--;
      top.splice(pos, 0, i);
    }
    return top.map((i) => ({ termId: idOf(i), norm: normOf(idOf(i)), hits: r.hits[i]!, clicked: r.clicked[i]!, lastAt: r.lastAt[i] === -Infinity ? null : r.lastAt[i]!, dirty: r.dirty[i] === 1 }));
  }

  function cachedRanking(pk: number, r: ReportRange, maxId: number, delta: () => DeltaRow[]): Ranking {
    const key = `${pk}|${r.fromMs}|${r.toMs}|${maxId}`;
    const t = now();
    const hit = cache.get(key);
    if (hit && t - hit.at < cacheTtlMs) {
      cache.delete(key);
      cache.set(key, hit);
      return hit.ranking;
    }
    const { ranking, cacheable } = computeRanking(pk, r, maxId, delta());
    if (cacheable && cacheEntries > 0) {
      cache.set(key, { at: t, ranking });
      while (cache.size > cacheEntries) cache.delete(cache.keys().next().value!);
    }
    return ranking;
  }

  /**
   * Clicks per term and path in the range's partial days, for the terms of one page: whole hours
   * from the hourly page rollup (one range per edge; what it holds beyond the pin is subtracted
   * by the caller), partial hours from one scan of the time index each that looks up only those
   * terms' clicks, exact up to the pin.
   */
  function edgeClicks(pk: number, r: ReportRange, termIds: readonly number[], maxId: number): Map<number, Map<string, number>> {
    const out = new Map<number, Map<string, number>>();
    const add = (termId: number, path: string, n: number) => {
      let m = out.get(termId);
      if (!m) out.set(termId, (m = new Map()));
      m.set(path, (m.get(path) ?? 0) + n);
    };
    const s = split(r);
    for (const [h0, h1] of s.hours) for (const [termId, path, n] of store.clicksByHoursOf(pk, h0, h1, termIds)) add(termId, path, n);
    for (const [a, b] of s.raws) for (const [termId, path] of store.clicksRawOf(pk, a, b, termIds, maxId)) add(termId, path, 1);
    return out;
  }

  /** The most clicked page over whole days and edges of a range, at the pin. */
  function topPageInRange(pk: number, termId: number, r: ReportRange, edge: Map<number, Map<string, number>>, delta: DeltaRow[]): string | null {
    const s = split(r);
    const clicks = new Map<string, number>();
    const add = (path: string, n: number) => clicks.set(path, (clicks.get(path) ?? 0) + n);
    if (s.day0 < s.day1) for (const [path, n] of store.clicksByPathDays(pk, termId, s.day0, s.day1)) add(path, n);
    for (const [path, n] of edge.get(termId) ?? []) add(path, n);
    for (const d of delta) if (d.kind === 1 && d.termId === termId && d.path !== null && s.inRollups(d.atMs)) add(d.path, -1);
    return bestPage(clicks);
  }

  /** All time: the term's pages from its all-time rollup, less the clicks stored after the pin. */
  function topPageAllTime(pk: number, termId: number, delta: DeltaRow[]): string | null {
    const clicks = new Map<string, number>(store.termPages(pk, termId));
    for (const d of delta) if (d.kind === 1 && d.termId === termId && d.path !== null) clicks.set(d.path, (clicks.get(d.path) ?? 0) - 1);
    return bestPage(clicks);
  }

  function bestPage(clicks: Map<string, number>): string | null {
    let top: string | null = null;
    let best = 0;
    for (const [path, n] of clicks) {
      if (n > best || (n === best && n > 0 && top !== null && compareTerms(path, top) < 0)) {
        best = n;
        top = path;
      }
    }
    return top;
  }

  function describe(pk: number, e: Ranked, r: ReportRange, edge: Map<number, Map<string, number>>, maxId: number, delta: DeltaRow[]): SearchAggregate {
    const s = split(r);
    const allTime = r.fromMs === null && r.toMs === null;
    const topClickedPage = allTime ? topPageAllTime(pk, e.termId, delta) : topPageInRange(pk, e.termId, r, edge, delta);
    let lastAt = e.lastAt;
    if (e.dirty) lastAt = store.lastSearchAt(pk, e.termId, s.from, s.to, maxId) ?? lastAt;
    return {
      searchQuery: e.norm,
      hits: e.hits,
      ctr: ctrPercent(e.clicked, e.hits),
      topClickedPage,
      lastSearchedAt: new Date(lastAt ?? 0).toISOString(),
    };
  }

  return {
    /**
     * One page. Without `pin` the data as of now is used (a first page); with it, the data as
     * of the pin's maxId, continuing after its key.
     */
    page(projectId: string, range: ReportRange, limit: number, pin?: { maxId: number; after: PageKey }): ReportPage {
      return store.snapshot(() => {
        const maxId = pin?.maxId ?? store.maxId();
        const pk = store.projectPk(projectId);
        if (pk === undefined) return { searches: [], totalSearches: 0, next: null, maxId };
        let deltaRows: DeltaRow[] | undefined;
        // Only a pinned page can have events after its pin; a first page's pin is the newest id.
        const delta = () => (deltaRows ??= pin ? store.eventsAfter(pk, maxId) : []);
        const ranking = cachedRanking(pk, range, maxId, delta);
        const slice = selectPage(ranking, limit, pin?.after);
        const total = ranking.total;
        const more = slice.length > limit;
        const shown = slice.slice(0, limit);
        const edge = split(range).edges.length ? edgeClicks(pk, range, shown.map((e) => e.termId), maxId) : new Map<number, Map<string, number>>();
        const searches = shown.map((e) => describe(pk, e, range, edge, maxId, delta()));
        const last = shown[shown.length - 1];
        return { searches, totalSearches: Math.max(0, total), next: more && last ? { hits: last.hits, norm: last.norm } : null, maxId };
      });
    },
    /**
     * Load what a first report would otherwise read from SQLite: the all-time totals (step 0)
     * and then the closed day `step` days before `todayDay`. One step per call, so a caller can
     * spread a warm-up over event-loop turns after a restart.
     */
    warm(projectId: string, step: number, todayDay: number): void {
      store.snapshot(() => {
        const pk = store.projectPk(projectId);
        if (pk === undefined) return;
        refreshTerms();
        if (step === 0) {
          allTimeAt(pk, store.maxId());
          return;
        }
        const day = todayDay - step;
        for (const [d, version] of store.dayVersions(pk, day, day + 1)) dayVector(pk, d, version);
      });
    },
    /** Drop cached rankings; with `days`, the cached day vectors too (as after a restart). */
    clearCache: (days = false) => {
      cache.clear();
      if (days) {
        dayCache.clear();
        hourCache.clear();
        allTime.clear();
      }
    },
  };
}

export type ReportService = ReturnType<typeof createReportService>;
