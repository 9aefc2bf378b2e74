import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { removeTree } from '../../app/fs-tree.js';
import { cliOnPath, freePorts, runBash, shellBlocks } from '../helpers/doc-shell.js';

const DOC = 'docs/walkthrough-hosted-api.md';
const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/*
 * docs/walkthrough-hosted-api.md as a reader runs it: its ```sh blocks, in order, in one bash,
 * against two real `docs-appliance serve` processes the blocks start themselves on free ports.
 * The doc cannot drift from the appliance: a changed answer fails here.
 */
describe(DOC, () => {
  it('runs from key to served bundle, then through the link expiry and two restarts of B', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'walkthrough-'));
    cleanups.push(() => removeTree(dir));
    const blocks = shellBlocks(DOC);
    expect(blocks.length).toBeGreaterThanOrEqual(8);
    const [aAdmin, aSite, bAdmin, bSite] = await freePorts(4);
    const env = {
      PATH: `${cliOnPath(dir)}:${process.env.PATH}`,
      WALK: path.join(dir, 'walk'),
      A_ADMIN_PORT: String(aAdmin), A_SITE_PORT: String(aSite), B_ADMIN_PORT: String(bAdmin), B_SITE_PORT: String(bSite),
    };
    const run = await runBash(blocks.join('\n'), env, 80_000);
    const logs = ['a.log', 'b.log'].map((f) => { try { return fs.readFileSync(path.join(env.WALK, f), 'utf8'); } catch { return ''; } });
    expect(run.code, `${run.out}\n${run.err}\n${logs.join('\n')}`).toBe(0);
    const lines = run.out.split('\n');

    // 2: a key from the server's own config
    expect(lines).toContainEqual(expect.stringMatching(/^key: mint_.{4}…$/));
    // 3: polled to completion, progress never going down
    const progress = lines.filter((l) => /^(queued|running|completed) [\d.]+%$/.test(l)).map((l) => Number(l.split(' ')[1]!.slice(0, -1)));
    expect(progress.at(-1)).toBe(100);
    expect([...progress].sort((x, y) => x - y)).toEqual(progress);
    expect(lines).toContain('completed 100%');
    // 4: curl | tar xz gave the site and its manifest
    expect(lines).toContain('index.html');
    expect(lines).toContain('manifest.json');
    expect(lines).toContain('walk-1');
    // 5 and 6: served pinned, the expired link refused, pinned restart from cache, unpinned restart
    const title = '<title>Quickstart - docs-appliance';
    expect(lines.filter((l) => l === title)).toHaveLength(3);
    const at = (s: string) => lines.indexOf(s);
    expect(at('serving walk-1')).toBeGreaterThan(at('walk-1'));
    expect(at('403')).toBeGreaterThan(at('serving walk-1'));
    expect(at('serving walk-1 (from cache)')).toBeGreaterThan(at('403'));
    expect(lines[at('serving walk-1 (from cache)') + 2]).toBe('ready');
    const detail = lines[at('serving walk-1 (from cache)') + 3]!;
    expect(detail).toMatch(/^serving walk-1; last load refused: http:\/\/127\.0\.0\.1:\d+\/v1\/static-export\/jobs\/se_[0-9a-f]{16}\/bundle\.tar\.gz\?…: HTTP 403 \(an expired or invalid signed link: generate a fresh bundleUrl\) \(retrying will not cure it: .*\); retrying in \d+ s$/);
    expect(detail).not.toMatch(/signature|expires=/);
    expect(lines[at('serving walk-1 (from cache)') + 4]).toBe('true');
    // 7: both stopped gracefully
    for (const log of logs) expect(log).toContain('"msg":"stopped"');
  }, 90_000);
});
