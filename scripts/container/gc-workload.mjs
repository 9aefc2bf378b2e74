// The GC-heavy workload of the repeated-start proof (restarts.sh), run INSIDE the appliance
// container with `podman exec <c> node --expose-gc /probe/gc-workload.mjs`. Plain Node, one JSON
// line on stdout.
//
// What aborts a process on a runtime pair that frees prepared statements unsafely (Node 24 with
// better-sqlite3 12: "Assertion failed: (env) != nullptr" in node::RemoveEnvironmentCleanupHook,
// from Statement::~Statement(), exit 134) is a collection that runs while Node tears the process
// down and frees statements of a closed database. Measured with the official Node 24.21.0: a
// process that closes its database and exits with 20,000 dropped statements, or 5,000 and a few
// MB of other garbage, aborted 5 times in 5; with 5,000 and nothing else, 0 in 5. So:
//   1. This process: opens the appliance's database read-only, prepares STATEMENTS statements in
//      rounds with a forced collection after each (from JavaScript, then from a V8 task), then
//      TAIL more and a few MB of other garbage with no collection after them, closes the database;
//   2. REQUESTS API requests to the appliance (health, readiness, metrics, an admin API read
//      with the initial key), each of which prepares statements in the appliance and drops them,
//      and leaves this process with its own garbage to free at exit.
// The caller stops the appliance right after, while its dropped statements are still to free:
// its exit is the appliance's moment of that abort (restarts.sh starts it with --expose-gc too).
import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';

const ADMIN = `http://127.0.0.1:${process.env.DOCS_APPLIANCE_ADMIN_PORT || 3000}`;
const STATE_DIR = process.env.DOCS_APPLIANCE_STATE_DIR || '/data';
const REQUESTS = Number(process.env.WORKLOAD_REQUESTS || 1000);
const STATEMENTS = Number(process.env.WORKLOAD_STATEMENTS || 5000);
const TAIL = Number(process.env.WORKLOAD_TAIL || 20000);
const ROUNDS = 25;

if (typeof globalThis.gc !== 'function') throw new Error('run with node --expose-gc');
const started = performance.now();

// 1. A second connection to the appliance's database, in this process.
const Database = createRequire('/app/package.json')('better-sqlite3');
const db = new Database(`${STATE_DIR}/docs-appliance.db`, { readonly: true, fileMustExist: true });
const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all().map((r) => r.name);
let prepared = 0;
let collections = 0;
for (let round = 0; round < ROUNDS; round++) {
  for (let i = 0; i < STATEMENTS / ROUNDS; i++) {
    const table = tables[prepared % tables.length];
    db.prepare(`SELECT count(*) AS n FROM "${table}" WHERE ${prepared} >= 0`).get();
    prepared++;
  }
  // From JavaScript, then from a V8 task (outside any JavaScript frame).
  globalThis.gc();
  await globalThis.gc({ type: 'major', execution: 'async' });
  collections += 2;
}
// Garbage left on purpose: prepared and dropped after the last collection, with other garbage
// beside them (the heap grows, so a collection is under way), freed at exit.
for (let i = 0; i < TAIL; i++) db.prepare(`SELECT ${i} AS n`).get();
let junk = [];
for (let i = 0; i < 200_000; i++) junk.push({ i, s: `x${i}` });
junk = null;
db.close();

// 2. The appliance, through its API, last: the caller stops it right after.
const key = fs.readFileSync(`${STATE_DIR}/initial-admin-key`, 'utf8').trim();
const paths = ['/healthz', '/readyz', '/metrics', `/v1/static-export/jobs/${crypto.randomBytes(12).toString('hex')}`];
const statuses = {};
for (let sent = 0; sent < REQUESTS; ) {
  // Ten at a time, the paths in turn.
  const batch = Array.from({ length: Math.min(10, REQUESTS - sent) }, () => paths[sent++ % paths.length]);
  await Promise.all(
    batch.map(async (p) => {
      const res = await fetch(ADMIN + p, { headers: { authorization: `Bearer ${key}` } });
      await res.arrayBuffer();
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
    }),
  );
}

console.log(JSON.stringify({ requests: Object.values(statuses).reduce((a, b) => a + b, 0), statuses, tables: tables.length, prepared: prepared + TAIL, collections, ms: Math.round(performance.now() - started) }));
