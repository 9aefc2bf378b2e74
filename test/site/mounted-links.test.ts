import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestAppliance, type TestAppliance } from '../helpers/appliance.js';
import { tempDir } from '../loader/helpers/servers.js';
import { fastLoader, listen, raw, rmDir, siteFeature } from './helpers.js';

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

/** A mounted site directory served on a real port, and a directory beside it that is not the site. */
async function mountedSite(): Promise<{ t: TestAppliance; port: number; mount: string; outside: string }> {
  const dir = tempDir('mounted-links-');
  const mount = path.join(dir, 'site');
  const outside = path.join(dir, 'outside');
  fs.mkdirSync(path.join(mount, 'sub'), { recursive: true });
  fs.mkdirSync(outside);
  fs.writeFileSync(path.join(mount, 'index.html'), '<p>home</p>');
  fs.writeFileSync(path.join(mount, 'sub', 'page.html'), '<p>inside</p>');
  fs.writeFileSync(path.join(outside, 'page.html'), '<p>SECRET page</p>');
  fs.writeFileSync(path.join(outside, 'passwd'), 'SECRET root:x:0:0');
  const t = createTestAppliance({ config: { staticExport: { enabled: true, bundleUrl: mount, ...fastLoader } } });
  await t.start();
  await siteFeature(t.features).idle();
  const server = await listen(t.site);
  cleanup = async () => {
    await server.close();
    await t.close();
    rmDir(dir);
  };
  return { t, port: server.port, mount, outside };
}

const recheck = () => new Promise((r) => setTimeout(r, 1100));

/** Issue 14, finding 9: links added to a mounted directory after its load are never followed. */
describe('links added to a mounted site directory after the load', () => {
  it('does not serve through a link to a directory outside the site', async () => {
    const { port, mount, outside } = await mountedSite();
    expect((await raw(port, '/')).body.toString()).toBe('<p>home</p>');
    fs.symlinkSync(outside, path.join(mount, 'etcdir'));
    for (const p of ['/etcdir/passwd', '/etcdir/page', '/etcdir/page.html', '/etcdir/']) {
      for (let i = 0; i < 2; i++) {
        const res = await raw(port, p);
        expect(res.status, p).toBe(404);
        expect(res.body.toString()).not.toContain('SECRET');
      }
    }
  });

  it('stops serving a directory that was replaced by a link after its pages were served and cached', async () => {
    const { port, mount, outside } = await mountedSite();
    for (let i = 0; i < 2; i++) expect((await raw(port, '/sub/page')).body.toString()).toBe('<p>inside</p>');
    fs.rmSync(path.join(mount, 'sub'), { recursive: true });
    fs.symlinkSync(outside, path.join(mount, 'sub'));
    await recheck();
    for (let i = 0; i < 3; i++) {
      const res = await raw(port, '/sub/page');
      expect(res.status).toBe(404);
      expect(res.body.toString()).not.toContain('SECRET');
    }
  });

  it('does not follow a link to a file outside, nor a link between two places inside the site', async () => {
    const { port, mount, outside } = await mountedSite();
    fs.symlinkSync(path.join(outside, 'passwd'), path.join(mount, 'passwd.txt'));
    fs.symlinkSync(path.join(mount, 'sub'), path.join(mount, 'alias'));
    expect((await raw(port, '/passwd.txt')).status).toBe(404);
    expect((await raw(port, '/alias/page')).status).toBe(404);
    expect((await raw(port, '/sub/page')).status).toBe(200);
  });
});
