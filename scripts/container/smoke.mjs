// Checks run INSIDE the appliance container (`podman exec <c> node /probe/smoke.mjs`): with
// `--network none` the listeners are reachable only from the container's own network namespace.
// Plain Node (no dependencies), one line per check, exit status 1 at the first failure.
//
// Environment (set by test.sh):
//   PROBE_DOMAIN         domain of the project declared in the mounted config file
//   PROBE_VERSION        version of the mounted bundle (the loader pins it)
//   PROBE_INDEX_SHA256   sha256 of the bundle's index.html
//   PROBE_MODE           `appliance` (default: everything) or `replica` (no admin API checks: a
//                        serving replica has no organization of its own)
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';

const ADMIN = `http://127.0.0.1:${process.env.DOCS_APPLIANCE_ADMIN_PORT || 3000}`;
const SITE = `http://127.0.0.1:${process.env.DOCS_APPLIANCE_SITE_PORT || 8080}`;
const STATE_DIR = process.env.DOCS_APPLIANCE_STATE_DIR || '/data';
const { PROBE_DOMAIN, PROBE_VERSION, PROBE_INDEX_SHA256, PROBE_MODE = 'appliance' } = process.env;

function ok(what) {
  console.log(`    ok  ${what}`);
}

function expect(condition, what, detail) {
  if (!condition) throw new Error(`${what}${detail === undefined ? '' : `: ${detail}`}`);
  ok(what);
}

async function call(method, url, { key, body } = {}) {
  const headers = {};
  if (key) headers.authorization = `Bearer ${key}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const bytes = Buffer.from(await res.arrayBuffer());
  const type = res.headers.get('content-type') ?? '';
  const json = type.includes('json') ? JSON.parse(bytes.toString('utf8')) : undefined;
  return { status: res.status, headers: res.headers, bytes, json };
}

const sha256 = (buf) => crypto.createHash('sha256').update(buf).digest('hex');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function main() {
  const required = PROBE_MODE === 'replica' ? ['PROBE_VERSION', 'PROBE_INDEX_SHA256'] : ['PROBE_DOMAIN', 'PROBE_VERSION', 'PROBE_INDEX_SHA256'];
  for (const name of required) {
    if (!process.env[name]) throw new Error(`${name} is not set`);
  }
  await checkProcess();
  await checkHealth();
  if (PROBE_MODE !== 'replica') await checkAdminApi();
  await checkSite();
}

/** The process and its filesystem. */
async function checkProcess() {
  expect(process.getuid() === 10001 && process.getgid() === 10001, 'runs as uid/gid 10001', `${process.getuid()}/${process.getgid()}`);
  let rootWritable = true;
  try {
    fs.writeFileSync('/app/.write-probe', 'x');
  } catch (err) {
    rootWritable = err.code !== 'EROFS';
  }
  expect(!rootWritable, 'root filesystem is read-only (EROFS)');
  const git = execFileSync('git', ['--version'], { encoding: 'utf8' }).trim();
  expect(/^git version \d/.test(git), `the agent runner's git is installed (${git})`);
}

async function checkHealth() {
  const health = await call('GET', `${ADMIN}/healthz`);
  expect(health.status === 200, 'GET /healthz -> 200', health.status);
  const ready = await call('GET', `${ADMIN}/readyz`);
  expect(ready.status === 200, 'GET /readyz -> 200', `${ready.status} ${ready.bytes}`);
  expect(JSON.stringify(ready.json).includes(PROBE_VERSION), `/readyz reports the bundle version ${PROBE_VERSION}`, ready.bytes.toString());

}

async function checkAdminApi() {
  // The initial admin key written on first start.
  const keyFile = `${STATE_DIR}/initial-admin-key`;
  const key = fs.readFileSync(keyFile, 'utf8').trim();
  expect(/^mint_[A-Za-z0-9]{32,}$/.test(key), `${keyFile} holds a mint_ key`);
  expect((fs.statSync(keyFile).mode & 0o777) === 0o600, `${keyFile} has mode 0600`, (fs.statSync(keyFile).mode & 0o777).toString(8));

  // The admin API: auth, then a full static export through the render pool.
  const noKey = await call('POST', `${ADMIN}/v1/static-export/jobs`, { body: { domain: PROBE_DOMAIN } });
  expect(noKey.status === 401 && /^Bearer/.test(noKey.headers.get('www-authenticate') ?? ''), 'POST /v1/static-export/jobs without a key -> 401 + WWW-Authenticate', noKey.status);
  const badKey = await call('POST', `${ADMIN}/v1/static-export/jobs`, { key: `mint_${'x'.repeat(40)}`, body: { domain: PROBE_DOMAIN } });
  expect(badKey.status === 401, 'POST /v1/static-export/jobs with an unknown key -> 401', badKey.status);

  const created = await call('POST', `${ADMIN}/v1/static-export/jobs`, { key, body: { domain: PROBE_DOMAIN, version: 'container-smoke' } });
  expect(created.status === 202 && /^se_[0-9a-f]{16}$/.test(created.json?.jobId ?? ''), 'POST /v1/static-export/jobs with the initial key -> 202 queued job', `${created.status} ${created.bytes}`);
  const jobId = created.json.jobId;
  const started = Date.now();
  let job = created.json;
  while (job.status === 'queued' || job.status === 'running') {
    if (Date.now() - started > 180_000) throw new Error(`export job ${jobId} still ${job.status} after 180 s`);
    await sleep(500);
    const polled = await call('GET', `${ADMIN}/v1/static-export/jobs/${jobId}`, { key });
    if (polled.status !== 200) throw new Error(`GET /v1/static-export/jobs/${jobId} -> ${polled.status} ${polled.bytes}`);
    job = polled.json;
  }
  expect(job.status === 'completed' && job.pageCount > 0 && job.progress === 100, `export job completed in ${((Date.now() - started) / 1000).toFixed(1)} s (${job.pageCount} pages)`, JSON.stringify(job));

  // The default bundle is a gzip-compressed tar, as the hosted platform hands out.
  const tgzLink = await call('POST', `${ADMIN}/v1/static-export/jobs/${jobId}/bundle`, { key });
  expect(tgzLink.status === 200 && tgzLink.json?.format === 'tar.gz', 'POST .../bundle -> 200 signed bundleUrl of the tar.gz', `${tgzLink.status} ${tgzLink.bytes}`);
  const tgzSigned = new URL(tgzLink.json.bundleUrl);
  const tgz = await call('GET', `${ADMIN}${tgzSigned.pathname}${tgzSigned.search}`);
  expect(
    tgz.status === 200 && tgz.bytes.length === tgzLink.json.sizeBytes && tgz.bytes[0] === 0x1f && tgz.bytes[1] === 0x8b,
    `GET signed bundle.tar.gz -> 200, ${tgz.bytes.length} bytes, gzip`,
    `${tgz.status} ${tgz.bytes.length} vs ${tgzLink.json.sizeBytes}`,
  );
  const link = await call('POST', `${ADMIN}/v1/static-export/jobs/${jobId}/bundle`, { key, body: { format: 'zip' } });
  expect(link.status === 200 && typeof link.json?.bundleUrl === 'string', 'POST .../bundle {"format":"zip"} -> 200 signed bundleUrl', `${link.status} ${link.bytes}`);
  // The link carries the client's host (or admin.publicUrl); fetch the same path and query here.
  const signed = new URL(link.json.bundleUrl);
  const zip = await call('GET', `${ADMIN}${signed.pathname}${signed.search}`);
  expect(
    zip.status === 200 && zip.bytes.length === link.json.sizeBytes && zip.bytes.subarray(0, 2).toString() === 'PK',
    `GET signed bundle.zip -> 200, ${zip.bytes.length} bytes, a zip`,
    `${zip.status} ${zip.bytes.length} vs ${link.json.sizeBytes}`,
  );
  const forged = new URLSearchParams(signed.search);
  const signature = forged.get('signature') ?? '';
  forged.set('signature', (signature.startsWith('A') ? 'B' : 'A') + signature.slice(1));
  const tampered = await call('GET', `${ADMIN}${signed.pathname}?${forged}`);
  expect(tampered.status === 403, 'GET bundle.zip with a tampered signature -> 403', tampered.status);

}

async function checkSite() {
  // The site listener serves the mounted bundle.
  const index = await call('GET', `${SITE}/`);
  expect(index.status === 200 && (index.headers.get('content-type') ?? '').startsWith('text/html'), 'site GET / -> 200 text/html', index.status);
  expect(sha256(index.bytes) === PROBE_INDEX_SHA256, "site GET / is byte for byte the bundle's index.html", sha256(index.bytes));
  const missing = await call('GET', `${SITE}/no-such-page-${Date.now()}`);
  expect(missing.status === 404, 'site GET /no-such-page -> 404', missing.status);
}

main().then(
  () => console.log('    smoke checks passed'),
  (err) => {
    console.error(`    FAIL ${err.message}`);
    process.exit(1);
  },
);
