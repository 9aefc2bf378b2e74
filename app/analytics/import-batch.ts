import type { StoredSearchEvent } from '../../data/stores/search-events.js';

/**
 * Events after the session rules, as columns, for the hop from the import's parsing thread to
 * the writing thread: typed arrays move without a copy (transfer). Terms and paths are numbered
 * by the sender, and each batch carries only the ones not sent before, as one newline-joined
 * string (a normalised term and a site path never hold a newline): the writer then looks up
 * the same string object for every occurrence, whose hash V8 has cached, instead of hashing a
 * fresh string per event (the writer's term lookup fell from 2.7 to 0.x s per million events).
 */
export interface EncodedEvents {
  n: number;
  kind: Uint8Array;
  atMs: Float64Array;
  /** -1 = null (clicks). */
  resultCount: Int32Array;
  countsCtr: Uint8Array;
  /** NaN = null. */
  searchAtMs: Float64Array;
  project: Uint16Array;
  projects: string[];
  /** Number of each event's term in the dictionary. */
  norm: Int32Array;
  /** Terms numbered from `normsBase` on, first seen in this batch. */
  newNorms: string;
  normsBase: number;
  /** Number of each event's path in the dictionary, -1 = null (searches). */
  path: Int32Array;
  newPaths: string;
  pathsBase: number;
}

/** Strings numbered in order of first appearance; what a batch adds is sent with it. */
export interface Dictionary {
  index: Map<string, number>;
  /** Entries already sent. */
  sent: number;
}

export const newDictionary = (): Dictionary => ({ index: new Map(), sent: 0 });

/** The sender numbers strings; past this many entries both sides start a new dictionary. */
export const DICTIONARY_MAX = 1_000_000;

function numberOf(d: Dictionary, fresh: string[], s: string): number {
  let i = d.index.get(s);
  if (i === undefined) {
    i = d.index.size;
    d.index.set(s, i);
    fresh.push(s);
  }
  return i;
}

export function encodeEvents(events: readonly StoredSearchEvent[], norms: Dictionary, paths: Dictionary): EncodedEvents {
  const n = events.length;
  const out: EncodedEvents = {
    n,
    kind: new Uint8Array(n),
    atMs: new Float64Array(n),
    resultCount: new Int32Array(n),
    countsCtr: new Uint8Array(n),
    searchAtMs: new Float64Array(n),
    project: new Uint16Array(n),
    projects: [],
    norm: new Int32Array(n),
    newNorms: '',
    normsBase: norms.sent,
    path: new Int32Array(n),
    newPaths: '',
    pathsBase: paths.sent,
  };
  const projectIndex = new Map<string, number>();
  const freshNorms: string[] = [];
  const freshPaths: string[] = [];
  for (let i = 0; i < n; i++) {
    const e = events[i]!;
    let p = projectIndex.get(e.projectId);
    if (p === undefined) {
      p = out.projects.push(e.projectId) - 1;
      projectIndex.set(e.projectId, p);
    }
    out.project[i] = p;
    out.kind[i] = e.kind;
    out.atMs[i] = e.atMs;
    out.resultCount[i] = e.resultCount ?? -1;
    out.countsCtr[i] = e.countsCtr;
    out.searchAtMs[i] = e.searchAtMs ?? NaN;
    out.norm[i] = numberOf(norms, freshNorms, e.norm);
    out.path[i] = e.path === null ? -1 : numberOf(paths, freshPaths, e.path);
  }
  out.newNorms = freshNorms.join('\n');
  out.newPaths = freshPaths.join('\n');
  norms.sent += freshNorms.length;
  paths.sent += freshPaths.length;
  return out;
}

/** The buffers `encodeEvents` allocated, for postMessage's transfer list. */
export const transferables = (e: EncodedEvents): ArrayBuffer[] =>
  [e.kind, e.atMs, e.resultCount, e.countsCtr, e.searchAtMs, e.project, e.norm, e.path].map((a) => a.buffer as ArrayBuffer);

/** The receiving side's copy of the sender's dictionaries. */
export interface ReceivedStrings {
  norms: string[];
  paths: string[];
}

export function decodeEvents(e: EncodedEvents, strings: ReceivedStrings): StoredSearchEvent[] {
  // A base of 0 with entries held means the sender started new dictionaries (DICTIONARY_MAX).
  if (e.normsBase === 0) strings.norms.length = 0;
  if (e.pathsBase === 0) strings.paths.length = 0;
  append(strings.norms, e.newNorms, e.normsBase);
  append(strings.paths, e.newPaths, e.pathsBase);
  const { norms, paths } = strings;
  const out: StoredSearchEvent[] = new Array(e.n);
  for (let i = 0; i < e.n; i++) {
    const rc = e.resultCount[i]!;
    const sa = e.searchAtMs[i]!;
    const p = e.path[i]!;
    out[i] = {
      projectId: e.projects[e.project[i]!]!,
      kind: e.kind[i] as 0 | 1,
      norm: norms[e.norm[i]!]!,
      atMs: e.atMs[i]!,
      resultCount: rc < 0 ? null : rc,
      path: p < 0 ? null : paths[p]!,
      countsCtr: e.countsCtr[i] as 0 | 1,
      searchAtMs: Number.isNaN(sa) ? null : sa,
    };
  }
  return out;
}

function append(to: string[], joined: string, base: number): void {
  if (base !== to.length) throw new Error(`import batch out of order: dictionary at ${to.length}, batch starts at ${base}`);
  if (joined === '') return;
  for (const s of joined.split('\n')) to.push(s);
}
