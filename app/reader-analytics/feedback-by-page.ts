import type { Db } from '../../data/db.js';
import { utf8Order } from './byte-order.js';
import { FEEDBACK_SOURCES, FEEDBACK_STATUSES, type FeedbackFilter } from '../../data/stores/page-feedback.js';

export interface FeedbackByPage {
  path: string;
  thumbsUp: number;
  thumbsDown: number;
  code: number;
  total: number;
}

/** One project's feedback as columns (a row per entry, in no particular order). */
interface ProjectIndex {
  seq: number;
  n: number;
  created: Float64Array;
  path: Int32Array;
  source: Uint8Array;
  status: Uint8Array;
  /** 1 helpful, 0 not, -1 none (code snippets). */
  helpful: Int8Array;
  byRow: Map<number, number>;
  pathIds: Map<string, number>;
  paths: string[];
  /** Rank of each path id in UTF-8 byte order; recomputed when paths were added. */
  rank: Int32Array;
}

const SOURCE_CODE = new Map(FEEDBACK_SOURCES.map((s, i) => [s as string, i]));
const STATUS_CODE = new Map(FEEDBACK_STATUSES.map((s, i) => [s as string, i]));
const CODE_SNIPPET = SOURCE_CODE.get('code_snippet')!;
const THUMBS = new Set([SOURCE_CODE.get('contextual')!, SOURCE_CODE.get('thumbs_only')!]);

/**
 * Feedback counts per page (GET …/feedback/by-page). A GROUP BY over the feedback rows costs
 * a sort per report (measured in bench/reader-analytics.bench.ts); instead each project's
 * feedback is kept in memory as columns and brought up to date by `seq` (a change sequence a
 * trigger sets on every insert and change, whichever process made it), then one pass filters
 * and counts and a bounded heap picks the page.
 */
export function createFeedbackByPage(db: Db) {
  const pkSel = db.prepare<[string], { pk: number }>('SELECT pk FROM search_projects WHERE project_id = ?');
  const changed = db.prepare<[number, number], { id: number; created_ms: number; path: string; source: string; status: string; helpful: number | null; seq: number }>(
    'SELECT id, created_ms, path, source, status, helpful, seq FROM page_feedback WHERE seq > ? AND project_pk = ? ORDER BY seq',
  );
  const indexes = new Map<number, ProjectIndex>();

  function grow(ix: ProjectIndex, need: number) {
    if (need <= ix.created.length) return;
    const cap = Math.max(1024, need * 2);
    const copy = <T extends Float64Array | Int32Array | Uint8Array | Int8Array>(a: T, make: (n: number) => T) => {
      const b = make(cap);
      b.set(a);
      return b;
    };
    ix.created = copy(ix.created, (n) => new Float64Array(n));
    ix.path = copy(ix.path, (n) => new Int32Array(n));
    ix.source = copy(ix.source, (n) => new Uint8Array(n));
    ix.status = copy(ix.status, (n) => new Uint8Array(n));
    ix.helpful = copy(ix.helpful, (n) => new Int8Array(n));
  }

  function refresh(pk: number): ProjectIndex {
    let ix = indexes.get(pk);
    if (!ix) {
      ix = { seq: 0, n: 0, created: new Float64Array(0), path: new Int32Array(0), source: new Uint8Array(0), status: new Uint8Array(0), helpful: new Int8Array(0), byRow: new Map(), pathIds: new Map(), paths: [], rank: new Int32Array(0) };
      indexes.set(pk, ix);
    }
    const rows = changed.all(ix.seq, pk);
    if (rows.length === 0) return ix;
    grow(ix, ix.n + rows.length);
    const pathsBefore = ix.paths.length;
    for (const r of rows) {
      let pos = ix.byRow.get(r.id);
      if (pos === undefined) ix.byRow.set(r.id, (pos = ix.n++));
      let pid = ix.pathIds.get(r.path);
      if (pid === undefined) {
        ix.pathIds.set(r.path, (pid = ix.paths.length));
        ix.paths.push(r.path);
      }
      ix.created[pos] = r.created_ms;
      ix.path[pos] = pid;
      ix.source[pos] = SOURCE_CODE.get(r.source) ?? 255;
      ix.status[pos] = STATUS_CODE.get(r.status) ?? 255;
      ix.helpful[pos] = r.helpful === null ? -1 : r.helpful;
      ix.seq = r.seq;
    }
    if (ix.paths.length !== pathsBefore) {
      const order = utf8Order(ix.paths);
      ix.rank = new Int32Array(ix.paths.length);
      order.forEach((id, i) => (ix!.rank[id] = i));
    }
    return ix;
  }

  // Reused between reports (zeroed, grown only with the paths): four fresh arrays of every path per
  // report were megabytes of garbage each time, and the collections they caused were the p99.
  let scratch = { cap: 0, up: new Float64Array(0), down: new Float64Array(0), code: new Float64Array(0), total: new Float64Array(0) };
  function counts(m: number) {
    if (scratch.cap < m) {
      const cap = Math.ceil(m * 1.25);
      scratch = { cap, up: new Float64Array(cap), down: new Float64Array(cap), code: new Float64Array(cap), total: new Float64Array(cap) };
    } else {
      scratch.up.fill(0, 0, m);
      scratch.down.fill(0, 0, m);
      scratch.code.fill(0, 0, m);
      scratch.total.fill(0, 0, m);
    }
    return scratch;
  }

  return {
    page(projectId: string, filter: FeedbackFilter, limit: number): { rows: FeedbackByPage[]; hasMore: boolean } {
      const pk = pkSel.get(projectId)?.pk;
      if (pk === undefined) return { rows: [], hasMore: false };
      const ix = refresh(pk);
      const m = ix.paths.length;
      const { up, down, code, total } = counts(m);
      const from = filter.fromMs ?? -Infinity;
      const to = filter.toMs ?? Infinity;
      const sources = filter.sources ? new Set(filter.sources.map((s) => SOURCE_CODE.get(s)!)) : null;
      const statuses = filter.statuses ? new Set(filter.statuses.map((s) => STATUS_CODE.get(s)!)) : null;
      for (let i = 0; i < ix.n; i++) {
        const c = ix.created[i]!;
        if (c < from || c >= to) continue;
        const src = ix.source[i]!;
        if (sources && !sources.has(src)) continue;
        if (statuses && !statuses.has(ix.status[i]!)) continue;
        const p = ix.path[i]!;
        total[p]!++;
        if (src === CODE_SNIPPET) code[p]!++;
        else if (THUMBS.has(src)) {
          if (ix.helpful[i] === 1) up[p]!++;
          else if (ix.helpful[i] === 0) down[p]!++;
        }
      }
      // Bounded heap of the limit + 1 best: more feedback first, then path byte order.
      const rank = ix.rank;
      const before = (x: number, y: number) => total[x]! > total[y]! || (total[x] === total[y] && rank[x]! < rank[y]!);
      const want = limit + 1;
      const heap: number[] = [];
      const worse = (x: number, y: number) => before(y, x);
      const swap = (i: number, j: number) => ([heap[i], heap[j]] = [heap[j]!, heap[i]!]);
      for (let p = 0; p < m; p++) {
        if (total[p] === 0) continue;
        if (heap.length < want) {
          heap.push(p);
          for (let i = heap.length - 1; i > 0; ) {
            const q = (i - 1) >> 1;
            if (!worse(heap[i]!, heap[q]!)) break;
            swap(i, q);
            i = q;
          }
        } else if (before(p, heap[0]!)) {
          heap[0] = p;
          for (let i = 0; ; ) {
            const l = 2 * i + 1, r = l + 1;
            let w = i;
            if (l < heap.length && worse(heap[l]!, heap[w]!)) w = l;
            if (r < heap.length && worse(heap[r]!, heap[w]!)) w = r;
            if (w === i) break;
            swap(i, w);
            i = w;
          }
        }
      }
      const ordered = heap.sort((x, y) => (before(x, y) ? -1 : 1));
      return {
        rows: ordered.slice(0, limit).map((p) => ({ path: ix.paths[p]!, thumbsUp: up[p]!, thumbsDown: down[p]!, code: code[p]!, total: total[p]! })),
        hasMore: ordered.length > limit,
      };
    },
    clearCache(): void {
      indexes.clear();
    },
  };
}

export type FeedbackByPageIndex = ReturnType<typeof createFeedbackByPage>;
