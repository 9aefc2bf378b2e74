/**
 * A docs repository is content someone else wrote: no file it links to outside itself may be
 * read by an export, and no error may quote such a file. Repositories are built in temp dirs with
 * symlinks to an outside JSON file (with a `name`) and to /etc/passwd-like content.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { exportSite, ExportError, type RenderPool } from '../../../renderer/index.js';
import { createTestAppliance, type TestAppliance } from '../../helpers/appliance.js';
import { pollJob, startExport } from '../../static-export/helpers.js';
import { tempSite } from '../load/site-fixtures.js';
import { sharedRenderPool } from '../../helpers/render-pool.js';

const SECRET = 'root:x:0:0:SECRET-OUTSIDE-CONTENT:/root:/bin/bash';
const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'outside-'));
const OUTSIDE_JSON = path.join(outside, 'other.json');
const OUTSIDE_PASSWD = path.join(outside, 'passwd');
fs.writeFileSync(OUTSIDE_JSON, JSON.stringify({ name: 'OUTSIDE-NAME', navigation: { pages: ['index'] } }));
fs.writeFileSync(OUTSIDE_PASSWD, `${SECRET}\n`);

const DOCS = JSON.stringify({ name: 'Inside', navigation: { pages: ['index'] } });
const INDEX = '---\ntitle: Home\n---\n\nHello.\n';

function repo(files: Record<string, string>, links: Record<string, string>): string {
  const root = tempSite(files);
  for (const [rel, target] of Object.entries(links)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.symlinkSync(target, path.join(root, rel));
  }
  return root;
}

let pool: RenderPool;
beforeAll(() => {
  pool = sharedRenderPool(1);
});
afterAll(async () => {
  await pool.close();
  fs.rmSync(outside, { recursive: true, force: true });
});

async function failure(sourceDir: string): Promise<string> {
  try {
    await exportSite({ sourceDir, pool });
  } catch (err) {
    const message = err instanceof ExportError ? `${err.message}\n${JSON.stringify(err.failures)}` : String((err as Error).message);
    expect(message).not.toContain('SECRET-OUTSIDE-CONTENT');
    expect(message).not.toContain('root:x');
    expect(message).not.toContain('OUTSIDE-NAME');
    return message;
  }
  throw new Error('expected the export to fail');
}

describe('exportSite reads only files inside the repository', () => {
  it.each([
    ['docs.json → an outside JSON file', { 'index.mdx': INDEX }, { 'docs.json': OUTSIDE_JSON }, /docs\.json is a link to a file outside the repository/],
    ['docs.json → /etc/passwd-like text', { 'index.mdx': INDEX }, { 'docs.json': OUTSIDE_PASSWD }, /docs\.json is a link to a file outside/],
    ['mint.json → an outside JSON file', { 'index.mdx': INDEX }, { 'mint.json': OUTSIDE_JSON }, /mint\.json is a link to a file outside/],
    ['docs.json → a folder of links', { 'index.mdx': INDEX }, { 'docs.json': outside }, /docs\.json is a link to a file outside/],
    ['a $ref through a link', { 'index.mdx': INDEX, 'docs.json': JSON.stringify({ name: 'x', navigation: { $ref: 'nav.json' } }) }, { 'nav.json': OUTSIDE_PASSWD }, /points outside the repository \(through a link\)/],
    ['a legacy <Snippet> linked outside', { 'index.mdx': '<Snippet file="s.mdx" />\n', 'docs.json': DOCS }, { 'snippets/s.mdx': OUTSIDE_PASSWD }, /points outside the repository/],
    ['.mintignore linked outside', { 'index.mdx': INDEX, 'docs.json': DOCS }, { '.mintignore': OUTSIDE_PASSWD }, /\.mintignore is a link to a file outside/],
  ])('%s: the export fails naming the file, never quoting the outside one', async (_name, files, links, message) => {
    expect(await failure(repo(files, links))).toMatch(message);
  });

  it('an import of a snippet linked outside is a missing-import warning (as Mintlify tolerates it); the outside file is never read', async () => {
    const sourceDir = repo({ 'index.mdx': "import S from '/snippets/s.mdx';\n\n<S>kept</S>\n", 'docs.json': DOCS }, { 'snippets/s.mdx': OUTSIDE_PASSWD });
    const result = await exportSite({ sourceDir, pool });
    const warning = result.warnings.find((w) => w.code === 'missing-import');
    expect(warning).toMatchObject({ file: 'index.mdx', line: 1 });
    expect(warning!.message).toMatch(/points outside the repository/);
    const everything = JSON.stringify(result.warnings) + [...result.files.values()].map((b) => Buffer.from(b).toString('latin1')).join('');
    expect(everything).not.toContain('SECRET-OUTSIDE-CONTENT');
    expect(Buffer.from(result.files.get('index.html')!).toString()).toContain('kept');
  });

  it('names a config that is not JSON without quoting it (inside the repository)', async () => {
    const msg = await failure(tempSite({ 'docs.json': `${SECRET}\n`, 'index.mdx': INDEX }));
    expect(msg).toMatch(/docs\.json:1:1: invalid JSON/);
  });

  it('leaves linked pages, stylesheets, scripts and images out, and copies no .git even when .mintignore asks', async () => {
    const sourceDir = repo(
      {
        'docs.json': JSON.stringify({ name: 'Inside', navigation: { pages: ['index'] }, favicon: '/fav.png', logo: '/logo.png' }),
        'index.mdx': INDEX,
        '.mintignore': '!.git\n!.git/\n!.env\n',
        '.git/HEAD': 'ref: refs/heads/main\n',
        '.git/refs/heads/main': `${'a'.repeat(40)}\n`,
        '.git/config': '[remote "origin"]\n  url = https://user:token@example.com/repo.git\n',
      },
      { 'leak.mdx': OUTSIDE_PASSWD, 'style.css': OUTSIDE_PASSWD, 'custom.js': OUTSIDE_PASSWD, 'fav.png': OUTSIDE_PASSWD, 'logo.png': OUTSIDE_PASSWD, 'dir': outside },
    );
    const result = await exportSite({ sourceDir, pool });
    expect([...result.files.keys()].filter((p) => p.includes('.git'))).toEqual([]);
    for (const [name, bytes] of result.files) {
      expect(Buffer.from(bytes).includes('SECRET-OUTSIDE-CONTENT'), name).toBe(false);
      expect(Buffer.from(bytes).includes('user:token'), name).toBe(false);
    }
    expect(result.manifest.version).toBe('a'.repeat(40));
  });

  it('treats a spec $ref that climbs above the repository as outside it, never as the file of that name at the root', async () => {
    // `../schemas.yaml` from the root spec named the repository's own schemas.yaml: a leading
    // ".." lost its first dot on the way ("./schemas.yaml").
    const spec = 'openapi: 3.0.0\ninfo: { title: T, version: "1" }\npaths:\n  /x:\n    get:\n      responses:\n        "200":\n          description: ok\n          content:\n            application/json:\n              schema: { $ref: "../schemas.yaml#/Thing" }\n';
    const sourceDir = tempSite({
      'docs.json': JSON.stringify({ name: 'Inside', navigation: { pages: ['index', { group: 'API', openapi: 'openapi.yaml', pages: ['GET /x'] }] } }),
      'index.mdx': INDEX,
      'openapi.yaml': spec,
      'schemas.yaml': 'Thing:\n  type: object\n  properties:\n    insideOnlyField: { type: string }\n',
    });
    const result = await exportSite({ sourceDir, pool });
    expect(result.warnings).toContainEqual(expect.objectContaining({ code: 'openapi-ref', message: expect.stringMatching(/\.\.\/schemas\.yaml.*outside the repository/) }));
    const html = [...result.files].filter(([name]) => name.endsWith('.html')).map(([, b]) => Buffer.from(b).toString()).join('');
    expect(html).not.toContain('insideOnlyField');
  });

  it('takes no version from a .git HEAD that links outside or a ref that climbs out', async () => {
    const linked = repo({ 'docs.json': DOCS, 'index.mdx': INDEX }, { '.git/HEAD': OUTSIDE_PASSWD });
    expect((await exportSite({ sourceDir: linked, pool, jobId: 'se_linked' })).manifest.version).toBe('se_linked');
    const climbing = repo({ 'docs.json': DOCS, 'index.mdx': INDEX }, {});
    fs.mkdirSync(path.join(climbing, '.git', 'refs'), { recursive: true });
    fs.writeFileSync(path.join(climbing, '.git', 'HEAD'), `ref: refs/${path.relative(path.join(climbing, '.git', 'refs'), OUTSIDE_PASSWD)}\n`);
    expect((await exportSite({ sourceDir: climbing, pool, jobId: 'se_climb' })).manifest.version).toBe('se_climb');
  });
});

describe('the export job (HTTP): a docs.json linked to an outside file', () => {
  let t: TestAppliance;
  afterEach(async () => {
    await t.features.find((f) => f.name === 'static-export')?.stop?.();
    await t.close();
  });

  it.each([OUTSIDE_PASSWD, OUTSIDE_JSON])('fails the job with an error that names docs.json and quotes nothing of %s', async (target) => {
    t = createTestAppliance({ sourceDir: repo({ 'index.mdx': INDEX }, { 'docs.json': target }), config: { renderer: { threads: 1 } } });
    await t.start();
    const key = t.createKey();
    const job = await startExport(t, key);
    const seen = await pollJob(t, key, job.jobId);
    const last = seen[seen.length - 1];
    expect(last?.status).toBe('failed');
    expect(last?.error).toMatch(/docs\.json is a link to a file outside the repository/);
    expect(JSON.stringify(seen)).not.toMatch(/SECRET-OUTSIDE-CONTENT|root:x|OUTSIDE-NAME/);
  });
});
