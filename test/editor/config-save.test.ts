import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { TEST_ORG } from '../helpers/appliance.js';
import { apiBase, editorClient, gitAppliance, gitOf, type EditorClient, type TestAppliance } from './helpers.js';

let t: TestAppliance;
let repo: ReturnType<typeof gitAppliance>['repo'];
let writer: EditorClient;
beforeEach(async () => {
  const g = gitAppliance();
  t = g.a;
  repo = g.repo;
  writer = await editorClient(t.admin, t.createKey(TEST_ORG));
});
afterEach(async () => {
  await t.close();
  repo.remove();
});

const api = apiBase();
const open = async (path: string) => (await writer.get(`${api}/file?branch=main&path=${encodeURIComponent(path)}`).expect(200)).body as { content: string; sha: string };

describe('saving the site config through the editor API', { timeout: 60_000 }, () => {
  test('a docs.json the export would refuse is answered 422 with its line, and nothing is committed', async () => {
    const file = await open('docs.json');
    const before = repo.head();

    // A syntax error: the renderer's parser names line and column.
    const broken = file.content.replace('"Start",', '"Start"');
    const syntax = await writer.put(`${api}/file`, { branch: 'main', path: 'docs.json', content: broken, baseSha: file.sha }).expect(422);
    // The parser stops at the key after the missing comma.
    const pagesLine = broken.split('\n').findIndex((l) => l.includes('"pages"')) + 1;
    expect(syntax.body).toMatchObject({ code: 'EDITOR_CONFIG_INVALID', file: 'docs.json', line: pagesLine });
    expect(syntax.body.error).toMatch(new RegExp(`^docs\\.json:${pagesLine}:\\d+: invalid JSON`));

    // A setting of the wrong shape: the line of the setting it names is found.
    const badRedirect = JSON.stringify({ ...JSON.parse(file.content), redirects: [{ source: '/a' }] }, null, 2);
    const shape = await writer.put(`${api}/file`, { branch: 'main', path: 'docs.json', content: badRedirect, baseSha: file.sha }).expect(422);
    expect(shape.body).toMatchObject({ code: 'EDITOR_CONFIG_INVALID', file: 'docs.json', line: badRedirect.split('\n').findIndex((l) => l.includes('"source"')) });
    expect(shape.body.error).toContain('"redirects[0]" needs "source" and "destination"');

    // No navigation at all.
    const noNav = JSON.stringify({ name: 'Tiny' }, null, 2);
    const missing = await writer.put(`${api}/file`, { branch: 'main', path: 'docs.json', content: noNav, baseSha: file.sha }).expect(422);
    expect(missing.body.error).toContain('"navigation" is missing');

    // A legacy mint.json is checked by the mint.json rules (navigation is an array of groups).
    const mint = await writer.put(`${api}/file`, { branch: 'main', path: 'mint.json', content: '{"name":"x","navigation":{"groups":[]}}', baseSha: null }).expect(422);
    expect(mint.body).toMatchObject({ file: 'mint.json', line: 1 });
    expect(mint.body.error).toContain('"navigation" must be an array of groups');

    expect(repo.head()).toBe(before);
    expect(gitOf(repo.bare, ['show', 'main:docs/docs.json'])).toBe(file.content.trimEnd());

    // A valid change is saved as any file is; a JSON file elsewhere is not a site config.
    const renamed = file.content.replace('"Start"', '"Getting started"');
    const ok = await writer.put(`${api}/file`, { branch: 'main', path: 'docs.json', content: renamed, baseSha: file.sha }).expect(200);
    expect(ok.body.commit).toBe(repo.head());
    await writer.put(`${api}/file`, { branch: 'main', path: 'data/other.json', content: '{"navigation":', baseSha: null }).expect(200);
  });
});
