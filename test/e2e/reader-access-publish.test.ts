/**
 * Reader access end to end (issue 40): a project with JWT `auth` is published from its source
 * directory by the real renderer; readers sign in with Mintlify's JWT handoff; and the leak test:
 * for each restricted page's unique marker, every route the site listener, the discovery API and
 * /mcp answer for an anonymous reader and for a reader of another group is searched, and the
 * marker appears nowhere.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAssistantKeyStore } from '../../app/assistant/keys-store.js';
import { createTestAppliance, TEST_ORG, TEST_PROJECT, type TestAppliance } from '../helpers/appliance.js';
import { untilEnded } from '../publish/helpers.js';
import { keyPair, readerCookieOf, signJwt } from '../reader-access/helpers.js';
import { siteFeature } from '../site/helpers.js';

const HOST = 'docs.auth.internal';
const ADMIN_MARK = 'QUOKKA7741';
const TEAM_MARK = 'PANGOLIN2290';
const PARTNER_MARK = 'AXOLOTL5512';
// A PNG used only by the admin page (its bytes carry a marker of their own).
const ADMIN_IMAGE = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.from(`image-${ADMIN_MARK}`)]);

function writeRepo(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reader-e2e-'));
  const w = (rel: string, text: string | Buffer) => {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  };
  w('docs.json', JSON.stringify({
    name: 'Reactor docs',
    navigation: {
      groups: [
        { group: 'Start', public: true, pages: ['index', 'guides/intro'] },
        { group: 'Team', pages: ['team/handbook'] },
        { group: 'Restricted', pages: ['admin/runbook', 'partner/guide'] },
      ],
    },
  }));
  w('index.mdx', '---\ntitle: Home\n---\n\nWelcome to the reactor docs.\n');
  w('guides/intro.mdx', '---\ntitle: Introduction\n---\n\nInstall the reactor software.\n');
  w('team/handbook.mdx', `---\ntitle: Handbook ${TEAM_MARK}\n---\n\nTeam notes ${TEAM_MARK}.\n`);
  w('admin/runbook.mdx', `---\ntitle: Runbook ${ADMIN_MARK}\ngroups: ["admin"]\n---\n\nRestart the reactor: ${ADMIN_MARK}.\n\n![diagram](/images/admin-diagram.png)\n`);
  w('partner/guide.mdx', `---\ntitle: Partner ${PARTNER_MARK}\ngroups: ["partner"]\n---\n\nPartner discounts ${PARTNER_MARK}.\n`);
  w('images/admin-diagram.png', ADMIN_IMAGE);
  return dir;
}

let t: TestAppliance;
let key: ReturnType<typeof keyPair>;
let apiKey: string;
let discoveryKey: string;
let alice: string; // admin
let bob: string; // partner

const nowS = () => Math.floor(Date.now() / 1000);
const signIn = async (groups: string[]): Promise<string> => {
  const token = signJwt({ host: HOST, exp: nowS() + 10, expiresAt: nowS() + 3600, groups }, key.privateKey);
  const res = await supertest(t.site).post('/login/jwt-callback').set('Host', HOST).type('form').send({ token }).expect(303);
  return readerCookieOf(res)!;
};
const get = (url: string, cookie?: string) => {
  const r = supertest(t.site).get(url).set('Host', HOST).buffer(true).parse((res, cb) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => cb(null, Buffer.concat(chunks)));
  });
  return cookie ? r.set('Cookie', cookie) : r;
};

beforeAll(async () => {
  key = keyPair();
  t = createTestAppliance({
    config: {
      renderer: { threads: 1 },
      projects: [{ id: TEST_PROJECT, orgId: TEST_ORG, name: 'Reactor docs', domain: HOST, sourceDir: writeRepo(), auth: { method: 'jwt', jwt: { publicKeyFile: key.publicKeyFile, loginUrl: 'https://portal.example/docs-login' } } }],
    },
  });
  await t.start();
  apiKey = t.createKey();
  discoveryKey = createAssistantKeyStore(t.ctx.db, () => new Date()).create({ projectId: TEST_PROJECT }).key;
  const started = await t.api(apiKey).post(`/v1/project/update/${TEST_PROJECT}`).expect(202);
  expect((await untilEnded(t, apiKey, started.body.statusId)).status).toBe('success');
  alice = await signIn(['admin']);
  bob = await signIn(['partner']);
}, 120_000);
afterAll(() => t?.close());

describe('a published project with JWT reader access', () => {
  it('renders the access map into the bundle (publish passes reader access for a project with auth)', () => {
    const site = siteFeature(t.features).siteFor(HOST)!;
    const manifest = JSON.parse(fs.readFileSync(path.join(site.root, 'manifest.json'), 'utf8')) as { access?: { defaultRequirement: string; files: Record<string, string>; pages: Record<string, number> } };
    expect(manifest.access?.defaultRequirement).toBe('public');
    expect(manifest.access?.files['admin/runbook/index.html']).toBe('groups:admin');
    expect(manifest.access?.files['team/handbook/index.html']).toBe('signed-in');
    expect(manifest.access?.pages).toEqual({ public: 2, signedIn: 1, groups: 2 });
  });

  it('sends a signed-out reader of a restricted page to the portal with the page wanted', async () => {
    const res = await get('/admin/runbook').expect(302);
    expect(res.headers.location).toBe(`https://portal.example/docs-login?redirect=${encodeURIComponent('/admin/runbook')}`);
    await get('/guides/intro').expect(200);
  });

  it('shows each reader what their groups allow, and the sidebar follows', async () => {
    const page = (await get('/admin/runbook', alice).expect(200)).body.toString();
    expect(page).toContain(`Restart the reactor: ${ADMIN_MARK}.`);
    await get('/partner/guide', alice).expect(404);
    expect((await get('/partner/guide', bob).expect(200)).body.toString()).toContain(PARTNER_MARK);
    await get('/admin/runbook', bob).expect(404);
    const intro = (await get('/guides/intro', bob).expect(200)).body.toString();
    expect(intro).toContain(PARTNER_MARK);
    expect(intro).toContain(TEAM_MARK);
    expect(intro).not.toContain(ADMIN_MARK);
    expect(intro).not.toContain('<!--da:');
  });

  it('leaks no restricted marker on any route, to an anonymous reader or a reader of another group', async () => {
    const site = siteFeature(t.features).siteFor(HOST)!;
    const files = fs.readdirSync(site.root, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => path.relative(site.root, path.join(e.parentPath, e.name)).split(path.sep).join('/'));
    expect(files.length).toBeGreaterThan(10);
    // The sweep can see a leak: the admin image is a bundle file, and the admin reader gets it.
    const image = files.find((f) => f.endsWith('.png') && fs.readFileSync(path.join(site.root, f)).includes(ADMIN_MARK));
    expect(image).toBeDefined();
    expect((await get(`/${image}`, alice).expect(200)).body.includes(ADMIN_MARK)).toBe(true);
    const urls = new Set<string>(['/', '/admin/runbook', '/admin/runbook.md', '/partner/guide', '/partner/guide.md', '/team/handbook', '/llms.txt', '/llms-full.txt', '/.well-known/llms.txt', '/.well-known/llms-full.txt', '/sitemap.xml', '/manifest.json', '/no/such/page', '/robots.txt']);
    for (const f of files) urls.add(`/${f}`);
    // Who must not see what: anonymous none of the three; the partner not the admin's; the admin not the partner's.
    const readers: [string, string | undefined, string[]][] = [
      ['anonymous', undefined, [ADMIN_MARK, TEAM_MARK, PARTNER_MARK]],
      ['partner', bob, [ADMIN_MARK]],
      ['admin', alice, [PARTNER_MARK]],
    ];
    for (const [who, cookie, hidden] of readers) {
      for (const url of urls) {
        const res = await get(url, cookie);
        const seen = Buffer.concat([res.body as Buffer, Buffer.from(JSON.stringify(res.headers))]);
        for (const mark of hidden) expect(seen.includes(mark), `${who} GET ${url} (${res.status}) shows ${mark}`).toBe(false);
        if (cookie === undefined && res.status === 200) expect(seen.includes('<!--da:'), `${who} GET ${url} carries a marker`).toBe(false);
      }
      // Markdown by content negotiation too.
      for (const url of ['/admin/runbook', '/partner/guide', '/team/handbook']) {
        const res = await get(url, cookie).set('Accept', 'text/markdown');
        for (const mark of hidden) expect((res.body as Buffer).includes(mark), `${who} Accept: text/markdown ${url}`).toBe(false);
      }
    }
    // The discovery API and /mcp answer machines (assistant keys, no reader session): public pages only.
    for (const mark of [ADMIN_MARK, TEAM_MARK, PARTNER_MARK]) {
      const search = await supertest(t.admin).post('/discovery/v1/search/docs').set('authorization', `Bearer ${discoveryKey}`).send({ query: mark, pageSize: 50 });
      expect(JSON.stringify(search.body)).not.toContain(mark);
      const mcp = await supertest(t.site).post('/mcp').set('Host', HOST).set('accept', 'application/json, text/event-stream').set('Cookie', alice)
        .send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search', arguments: { query: mark } } });
      expect(mcp.text).not.toContain(mark);
    }
    for (const p of ['admin/runbook', 'team/handbook', 'partner/guide']) {
      const res = await supertest(t.admin).post('/discovery/v1/page/docs').set('authorization', `Bearer ${discoveryKey}`).send({ path: p });
      expect(res.status, p).toBe(404);
    }
  });
});
