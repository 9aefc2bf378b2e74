import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import Database from 'better-sqlite3';
import { scopeToken } from './match-query.js';
import { parseLegacySectionIndex, sectionFromLine } from '../../renderer/retrieval/section-index.js';
import { LEGACY_RETRIEVAL_INDEX_PATH, RETRIEVAL_FORMAT, RETRIEVAL_INDEX_PATH, type RetrievalSection } from '../../renderer/retrieval/types.js';

/** Bumped when the index file's tables change: older files are then rebuilt, never misread. */
const INDEX_SCHEMA = 3;
/** Sections inserted per statement batch while building (one transaction holds them all). */
const BATCH = 2_000;
/** Index files nobody opened for this long are removed when another one is built. */
const STALE_MS = 24 * 3_600_000;

export interface IndexSummary {
  name: string;
  sectionCount: number;
  /** The first section's language and version: the site's defaults. */
  defaultLanguage: string | null;
  defaultVersion: string | null;
}

/**
 * The index file of one bundle under `cacheDir`, named by what identifies the bundle's section
 * index (its real path, size and modification time: an extracted bundle never changes in place),
 * so a restart reopens it and a new bundle gets its own.
 */
export function indexFileFor(root: string, cacheDir: string): { file: string; source: string | undefined } {
  for (const rel of [RETRIEVAL_INDEX_PATH, LEGACY_RETRIEVAL_INDEX_PATH]) {
    const abs = path.join(root, rel);
    let st: fs.Stats;
    try {
      st = fs.statSync(abs);
    } catch {
      continue;
    }
    if (!st.isFile()) continue;
    const key = crypto.createHash('sha256').update(`${INDEX_SCHEMA}\n${fs.realpathSync(abs)}\n${st.size}\n${st.mtimeMs}`).digest('hex').slice(0, 32);
    return { file: path.join(cacheDir, `${key}.sqlite`), source: abs };
  }
  return { file: path.join(cacheDir, 'empty.sqlite'), source: undefined };
}

async function* sectionsOf(source: string | undefined, onName: (name: string | undefined) => void): AsyncGenerator<RetrievalSection> {
  if (!source) return onName(undefined);
  if (source.endsWith('.json')) {
    // Format 1 (bundles made before NDJSON) is one document: it is parsed whole, here in the worker.
    const legacy = parseLegacySectionIndex(fs.readFileSync(source, 'utf8'));
    onName(legacy?.name);
    for (const s of legacy?.sections ?? []) yield s;
    return;
  }
  const lines = readline.createInterface({ input: fs.createReadStream(source, { encoding: 'utf8', highWaterMark: 1 << 20 }), crlfDelay: Infinity });
  let first = true;
  for await (const line of lines) {
    if (first) {
      first = false;
      let header: { format?: unknown; name?: unknown } = {};
      try {
        header = JSON.parse(line) as typeof header;
      } catch {
        // not an index this appliance can read: no sections
      }
      if (header.format !== RETRIEVAL_FORMAT) {
        lines.close();
        return onName(undefined);
      }
      onName(typeof header.name === 'string' ? header.name : undefined);
      continue;
    }
    const s = sectionFromLine(line);
    if (s) yield s;
  }
}

function createTables(db: Database.Database): void {
  db.exec(`
    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    -- Scope columns first: a query filters every match by them, and columns after a long text
    -- would be read through the row's overflow pages.
    -- scope: the language and version as two index words (match-query.ts scopeToken).
    CREATE TABLE sections (
      id INTEGER PRIMARY KEY, language TEXT, version TEXT, scope TEXT NOT NULL, path TEXT NOT NULL,
      url TEXT NOT NULL, title TEXT NOT NULL, heading TEXT NOT NULL, text TEXT NOT NULL
    );
    -- External content: the text is stored once, in sections; fts holds only the inverted index.
    CREATE VIRTUAL TABLE fts USING fts5(title, heading, text, scope, content='sections', content_rowid='id', tokenize='unicode61 remove_diacritics 2');
    -- How many sections hold each word: a query leaves out words too common to rank by.
    CREATE VIRTUAL TABLE vocab USING fts5vocab(fts, 'row');
  `);
}

/**
 * Build the bundle's FTS5 index into `file`: stream the section index line by line (never the
 * whole file in memory), insert in one transaction, then index and merge. Written to a temporary
 * name and renamed, so a crash mid-build leaves no half index that a restart would trust.
 */
export async function buildIndexFile(source: string | undefined, file: string): Promise<void> {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`;
  const db = new Database(tmp);
  try {
    db.pragma('journal_mode = OFF');
    db.pragma('synchronous = OFF');
    db.pragma('cache_size = -16000');
    createTables(db);
    const insert = db.prepare('INSERT INTO sections (id, language, version, scope, path, url, title, heading, text) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)');
    let name: string | undefined;
    let id = 0;
    let batch: RetrievalSection[] = [];
    const flush = (rows: RetrievalSection[]) => {
      for (const s of rows) insert.run(id++, s.language ?? null, s.version ?? null, `${scopeToken('l', s.language)} ${scopeToken('v', s.version)}`, s.path, s.url, s.title, s.heading, s.text);
    };
    // One transaction for the whole build: the file is private until the rename below.
    db.exec('BEGIN');
    for await (const s of sectionsOf(source, (n) => (name = n))) {
      batch.push(s);
      if (batch.length === BATCH) {
        flush(batch);
        batch = [];
      }
    }
    flush(batch);
    db.exec("INSERT INTO fts(fts) VALUES ('rebuild'); INSERT INTO fts(fts) VALUES ('optimize');");
    db.exec('CREATE INDEX sections_path ON sections (path)');
    const meta = db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)');
    meta.run('name', name?.trim() ? name.trim().slice(0, 200) : 'Documentation');
    meta.run('sections', String(id));
    db.exec('COMMIT');
    db.close();
    fs.renameSync(tmp, file);
  } catch (err) {
    if (db.open) db.close();
    fs.rmSync(tmp, { force: true });
    throw err;
  }
  removeStale(path.dirname(file), file);
}

/** Other bundles' index files that nobody opened for a day (a rolled-back bundle reopens its own). */
function removeStale(dir: string, keep: string): void {
  const now = Date.now();
  for (const name of fs.readdirSync(dir)) {
    const abs = path.join(dir, name);
    if (abs === keep) continue;
    try {
      if (now - fs.statSync(abs).mtimeMs > STALE_MS) fs.rmSync(abs, { force: true });
    } catch {
      // gone already
    }
  }
}

/** Open a built index read-only, memory-mapped, and mark it used (see removeStale). */
export function openIndexFile(file: string): { db: Database.Database; summary: IndexSummary } {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  // No mmap: pages a query reads would count as the process's resident memory; read through
  // SQLite's small page cache instead, with the kernel's page cache (shared, reclaimable) below it.
  db.pragma('mmap_size = 0');
  db.pragma('cache_size = -8000');
  const meta = new Map((db.prepare('SELECT key, value FROM meta').all() as { key: string; value: string }[]).map((r) => [r.key, r.value]));
  const first = db.prepare('SELECT language, version FROM sections ORDER BY id LIMIT 1').get() as { language: string | null; version: string | null } | undefined;
  const t = new Date();
  try {
    fs.utimesSync(file, t, t);
  } catch {
    // a read-only state dir: the file is only removed later than it could be
  }
  return { db, summary: { name: meta.get('name') ?? 'Documentation', sectionCount: Number(meta.get('sections') ?? 0), defaultLanguage: first?.language ?? null, defaultVersion: first?.version ?? null } };
}
