import type { PageFeedbackStore, FeedbackInput } from '../../data/stores/page-feedback.js';
import type { PageBatchResult, PageViewStore, StoredPageView } from '../../data/stores/page-views.js';
import type { Logger } from '../logger.js';
import { classifyUserAgent } from './classify.js';
import type { ReaderEvent } from './events.js';
import { COLLECT_ALL, type SiteCollection } from './site-collection.js';
import type { VisitorHasher } from './visitor.js';

/** Who sent the events: used for the visitor hash and the human/AI split, never stored. */
export interface ReaderClient {
  ip: string;
  userAgent: string;
  /** The Host the request came with: it names the served site, whose bundle may switch collection off. */
  host?: string | undefined;
}

export interface ReaderIngestOptions {
  views: PageViewStore;
  feedback: PageFeedbackStore;
  hasher: VisitorHasher;
  log: Logger;
  enabled: () => boolean;
  /** What the site answered at a Host collects (its bundle's switches); default: everything. */
  siteCollection?: (host: string | undefined) => SiteCollection;
  /** After each written batch (the report folds it into its cached days). */
  onBatch?: (result: PageBatchResult) => void;
  onOutcome?: (outcome: 'rejected' | 'stored' | 'duplicate' | 'ignored' | 'dropped', n: number) => void;
  intervalMs?: number;
  maxPending?: number;
}

/** A view id seen within this long counts once (retries, a page restored from the back-forward cache). */
const VIEW_DEDUP_MS = 30 * 60_000;
const VIEW_DEDUP_MAX = 200_000;

/**
 * The write path of reader events, shared by the site's beacon, the site listener's own count
 * of AI agents and (issue 19) beacons a serving replica forwards: `accept` is the one entry.
 * Events are answered at once and written in batches (every 250 ms or 5,000 events), one
 * transaction per batch, as for searches.
 */
export function createReaderIngest(opts: ReaderIngestOptions) {
  const intervalMs = opts.intervalMs ?? 250;
  const maxPending = opts.maxPending ?? 5_000;
  let views: StoredPageView[] = [];
  let feedback: FeedbackInput[] = [];
  let timer: NodeJS.Timeout | null = null;
  // Insertion-ordered: the oldest ids are forgotten first.
  const seenViews = new Map<string, number>();

  function flush(): number {
    if (timer) {
      clearTimeout(timer);
      timer = null;
    }
    const v = views;
    const f = feedback;
    views = [];
    feedback = [];
    let stored = 0;
    if (v.length) {
      try {
        const result = opts.views.writeBatch(v);
        stored += v.length;
        opts.onBatch?.(result);
      } catch (err) {
        opts.log.error({ err, events: v.length }, 'reader analytics: writing a batch of page views failed; the batch is dropped');
        opts.onOutcome?.('dropped', v.length);
      }
    }
    if (f.length) {
      try {
        opts.feedback.recordMany(f);
        stored += f.length;
      } catch (err) {
        opts.log.error({ err, events: f.length }, 'reader analytics: writing a batch of feedback failed; the batch is dropped');
        opts.onOutcome?.('dropped', f.length);
      }
    }
    if (stored) opts.onOutcome?.('stored', stored);
    return stored;
  }

  function schedule() {
    if (views.length + feedback.length >= maxPending) flush();
    else if (!timer) {
      timer = setTimeout(flush, intervalMs);
      timer.unref();
    }
  }

  function firstSighting(projectId: string, viewId: string, nowMs: number): boolean {
    const k = `${projectId}:${viewId}`;
    const at = seenViews.get(k);
    if (at !== undefined && nowMs - at < VIEW_DEDUP_MS) return false;
    seenViews.delete(k);
    seenViews.set(k, nowMs);
    if (seenViews.size > VIEW_DEDUP_MAX) seenViews.delete(seenViews.keys().next().value!);
    return true;
  }

  const collection = (host: string | undefined) => opts.siteCollection?.(host) ?? COLLECT_ALL;

  return {
    enabled: opts.enabled,
    /** Whether page views from this Host are collected: the appliance's switch and the site's own. */
    collects(host: string | undefined): boolean {
      return opts.enabled() && collection(host).pageViews;
    },
    /**
     * Take checked events of one request for `projectId`. Page views from user agents that are
     * not a person's browser are ignored here: AI agents are counted by the site listener (they
     * run no script, so a beacon of theirs would be a second count) and other bots not at all.
     * Returns how many events were kept for writing.
     */
    accept(projectId: string, events: readonly ReaderEvent[], client: ReaderClient, nowMs: number): number {
      if (!opts.enabled()) {
        opts.onOutcome?.('ignored', events.length);
        return 0;
      }
      let kept = 0;
      const site = collection(client.host);
      const traffic = classifyUserAgent(client.userAgent);
      // One request is one reader: hashed once, not per event (a SHA-256 per view was the
      // largest cost of a 100-view beacon batch).
      let visitor: number | undefined;
      for (const e of events) {
        if (e.kind === 'feedback') {
          // The site's switches: thumbs and contextual votes need its "Was this page helpful?", code feedback its code-block button.
          if (!(e.input.source === 'code_snippet' ? site.code : site.thumbs)) {
            opts.onOutcome?.('ignored', 1);
            continue;
          }
          feedback.push({ ...e.input, projectId, atMs: nowMs });
          kept++;
          continue;
        }
        if (e.kind === 'agentview') {
          // Classified by the replica's listener that served the page (the request is keyed).
          if (!site.pageViews) {
            opts.onOutcome?.('ignored', 1);
            continue;
          }
          visitor ??= opts.hasher.hash(nowMs, client.ip, client.userAgent, projectId);
          views.push({ projectId, atMs: nowMs, path: e.path, ai: 1, visitor });
          kept++;
          continue;
        }
        if (traffic !== 'human' || !site.pageViews) {
          opts.onOutcome?.('ignored', 1);
          continue;
        }
        if (!firstSighting(projectId, e.viewId, nowMs)) {
          opts.onOutcome?.('duplicate', 1);
          continue;
        }
        visitor ??= opts.hasher.hash(nowMs, client.ip, client.userAgent, projectId);
        views.push({ projectId, atMs: nowMs, path: e.path, ai: 0, visitor });
        kept++;
      }
      if (kept) schedule();
      return kept;
    },
    /** A page (HTML or Markdown) the site listener served to an AI agent: one AI view. */
    acceptAgentView(projectId: string, path: string, client: ReaderClient, nowMs: number): void {
      if (!opts.enabled() || !collection(client.host).pageViews) {
        opts.onOutcome?.('ignored', 1);
        return;
      }
      views.push({ projectId, atMs: nowMs, path, ai: 1, visitor: opts.hasher.hash(nowMs, client.ip, client.userAgent, projectId) });
      schedule();
    },
    /** Reader events not collected before they reached `accept` (a replica with collection off): counted. */
    countIgnored(n: number): void {
      opts.onOutcome?.('ignored', n);
    },
    /** Reader events the beacon endpoint refused (malformed): counted, never searched for. */
    countRejected(n: number): void {
      opts.onOutcome?.('rejected', n);
    },
    flush,
    pendingCount: () => views.length + feedback.length,
  };
}

export type ReaderIngest = ReturnType<typeof createReaderIngest>;
