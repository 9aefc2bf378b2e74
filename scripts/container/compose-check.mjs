// The checks of compose-test.sh and kube-test.sh, run on the host against the running set-up:
// publish on the appliance through its API, time until every replica serves the new version, post a search
// beacon to a replica (what the site's search.js sends) and find it in the appliance's report.
// Plain Node (fetch), no project code: it sees only what an operator or a reader sees.
//
// Environment: ADMIN_URL, ADMIN_KEY, PROJECT_ID, DOMAIN, TARGETS (name=url,…: each replica, and
// the load balancer), SOURCE_INDEX
// (the host path of the project's index.mdx), STEP (publish | search | served | outage-post |
// outage-report), LABEL, BOUND_S, QUERIES_FILE.
import fs from 'node:fs';

const env = (name) => process.env[name] ?? fail(`${name} is not set`);
const ADMIN_URL = env('ADMIN_URL');
const ADMIN_KEY = env('ADMIN_KEY');
const PROJECT_ID = env('PROJECT_ID');
const DOMAIN = env('DOMAIN');
const TARGETS = env('TARGETS').split(',').map((pair) => {
  const [name, url] = pair.split('=');
  return { name, url };
});
const BOUND_MS = Number(process.env.BOUND_S ?? 30) * 1000;

function fail(message) {
  console.error(`FAIL: ${message}`);
  process.exit(1);
}
const info = (message) => console.log(`    ${message}`);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function admin(method, path) {
  const res = await fetch(`${ADMIN_URL}${path}`, { method, headers: { authorization: `Bearer ${ADMIN_KEY}` } });
  const text = await res.text();
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: res.status, body };
}

/** The site as a reader gets it from one replica: its Host names the project. */
async function page(url, path = '/') {
  try {
    const res = await fetch(`${url}${path}`, { headers: { host: DOMAIN }, signal: AbortSignal.timeout(5000) });
    return { status: res.status, text: await res.text() };
  } catch (err) {
    return { status: 0, text: String(err.cause?.code ?? err.message) };
  }
}

async function publish() {
  const label = env('LABEL');
  const marker = `Published by the compose test: ${label}.`;
  const index = env('SOURCE_INDEX');
  // The writer's change: the source directory is mounted read-only into the appliance.
  const original = fs.readFileSync(index, 'utf8').replace(/\n\nPublished by the compose test: [^\n]*\n$/, '\n');
  fs.writeFileSync(index, `${original}\n\n${marker}\n`);

  const requested = Date.now();
  const post = await admin('POST', `/v1/project/update/${PROJECT_ID}`);
  if (post.status !== 202 || !post.body.statusId) fail(`POST /v1/project/update answered ${post.status} ${JSON.stringify(post.body)}`);
  const statusId = post.body.statusId;
  info(`POST /v1/project/update/${PROJECT_ID}: 202, statusId ${statusId}`);

  // Poll the status and the replicas together: a replica may serve before the status poll sees the end.
  const servedAt = new Map();
  let ended;
  let record;
  const deadline = requested + 180_000;
  while (!ended || servedAt.size < TARGETS.length) {
    const now = Date.now();
    if (now > deadline) break;
    if (ended && now - ended > BOUND_MS) break;
    if (!ended) {
      const s = await admin('GET', `/v1/project/update-status/${statusId}`);
      if (s.status !== 200) fail(`GET /v1/project/update-status answered ${s.status} ${JSON.stringify(s.body)}`);
      record = s.body;
      if (record.status === 'failure') fail(`the publish failed: ${record.summary} ${JSON.stringify(record.logs)}`);
      if (record.status === 'success') ended = Date.now();
    }
    await Promise.all(
      TARGETS.filter((r) => !servedAt.has(r.name)).map(async (r) => {
        const p = await page(r.url);
        if (p.status === 200 && p.text.includes(marker)) servedAt.set(r.name, Date.now());
      }),
    );
    await sleep(200);
  }
  if (!ended) fail(`the publish did not end within 180 s (last status ${record?.status})`);
  info(`publish ${record.status}: version ${record.version}, ${record.durationMs} ms on the appliance (${ended - requested} ms from the request, seen by polling)`);
  const late = TARGETS.filter((r) => !servedAt.has(r.name));
  for (const r of late) {
    const p = await page(r.url);
    console.error(`    ${r.name} (${r.url}): ${p.status} ${p.text.slice(0, 200).replace(/\s+/g, ' ')}`);
  }
  if (late.length) fail(`${late.map((r) => r.name).join(', ')} did not serve version ${record.version} within ${BOUND_MS / 1000} s of the publish's end`);
  let slowest = 0;
  for (const r of TARGETS) {
    const afterEnd = servedAt.get(r.name) - ended;
    slowest = Math.max(slowest, afterEnd);
    info(`${r.name} serves it ${Math.max(0, afterEnd)} ms after the publish ended (${servedAt.get(r.name) - requested} ms after the request)`);
  }
  info(`every one of ${TARGETS.map((r) => r.name).join(', ')} serves version ${record.version}; slowest ${Math.max(0, slowest)} ms after the end (bound ${BOUND_MS / 1000} s)`);
}

/** Post one search beacon to each target; the queries, by target. */
async function postSearches(tag) {
  // What search.js posts for a committed search (renderer/assets/client/search.js), sent to each
  // replica and through the load balancer as a reader's browser would, a query of its own to each.
  const stamp = Date.now().toString(36);
  const queries = {};
  for (const [i, r] of TARGETS.entries()) {
    const query = `compose ${tag} via ${r.name} ${stamp}`;
    const res = await fetch(`${r.url}/_/events`, {
      method: 'POST',
      headers: { host: DOMAIN, 'content-type': 'application/json', 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) compose-test' },
      body: JSON.stringify([{ type: 'search', query, resultCount: 2, sessionId: `${stamp}${i}`.padEnd(32, '0') }]),
    });
    const body = await res.json().catch(() => ({}));
    if (res.status !== 202 || body.accepted !== 1) fail(`POST /_/events on ${r.name} answered ${res.status} ${JSON.stringify(body)}`);
    queries[query] = r.name;
  }
  info(`one search beacon posted to each (202, accepted 1): ${Object.keys(queries).map((q) => JSON.stringify(q)).join(', ')}`);
  return queries;
}

/** Wait until the appliance's search report lists every query once. */
async function reported(queries, boundMs) {
  const wanted = new Set(Object.keys(queries));
  const started = Date.now();
  let found = [];
  let last = '';
  while (Date.now() - started < boundMs) {
    const report = await admin('GET', `/v1/analytics/${PROJECT_ID}/searches`).catch((err) => ({ status: 0, body: String(err.cause?.code ?? err.message) }));
    if (report.status === 200) {
      found = report.body.searches.filter((s) => wanted.has(s.searchQuery));
      if (found.length === wanted.size) break;
    } else last = `${report.status} ${JSON.stringify(report.body)}`;
    await sleep(500);
  }
  if (found.length !== wanted.size) fail(`the appliance's search report has ${found.length} of the ${wanted.size} searches after ${boundMs / 1000} s${last ? ` (last answer ${last})` : ''}`);
  for (const s of found) if (s.hits !== 1) fail(`"${s.searchQuery}" counted ${s.hits} times, not once`);
  info(`GET /v1/analytics/${PROJECT_ID}/searches lists every one (hits 1 each) ${Date.now() - started} ms after the check began`);
}

/** Every replica still serves the last published version (the appliance may be down). */
async function stillServed() {
  const marker = `Published by the compose test: ${env('LABEL')}.`;
  for (const r of TARGETS) {
    const p = await page(r.url);
    if (p.status !== 200 || !p.text.includes(marker)) fail(`${r.name} answered ${p.status} without the last published version`);
  }
  info(`${TARGETS.map((r) => r.name).join(', ')}: still the last published version`);
}

const QUERIES_FILE = process.env.QUERIES_FILE;
const step = env('STEP');
if (step === 'publish') await publish();
else if (step === 'search') await reported(await postSearches('search'), BOUND_MS);
else if (step === 'served') await stillServed();
else if (step === 'outage-post') {
  await stillServed();
  fs.writeFileSync(QUERIES_FILE, JSON.stringify(await postSearches('outage')));
} else if (step === 'outage-report') await reported(JSON.parse(fs.readFileSync(QUERIES_FILE, 'utf8')), BOUND_MS);
else fail(`unknown STEP ${step}`);
