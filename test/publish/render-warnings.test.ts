/**
 * Render warnings where operators look (issue 38, point 9): a finished publish's status
 * (`GET /v1/project/update-status/{statusId}`) counts its bundle's warnings by kind and lists
 * them with file, line and a link to their page.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAppliance, TEST_ORG, writeTinyDocs, type TestAppliance } from '../helpers/appliance.js';
import { untilEnded } from './helpers.js';

const PROJECT = 'ffffffffffffffffffffffff';
let t: TestAppliance;
let key: string;
let dir: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'render-warnings-'));
  const docs = writeTinyDocs(path.join(dir, 'docs'));
  fs.writeFileSync(path.join(docs, 'index.mdx'), '---\ntitle: Home\n---\n\nSee [the missing guide](/guides/missing) and [another](/nowhere).\n');
  t = createTestAppliance({ config: { renderer: { threads: 1 }, projects: [{ id: PROJECT, orgId: TEST_ORG, name: 'Warned docs', domain: 'docs.warned.internal', sourceDir: docs }] } });
  await t.start();
  key = t.createKey();
}, 60_000);

afterAll(async () => {
  await t?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('render warnings of a publish', () => {
  it('are counted by kind and listed with file, line and page in the update status', async () => {
    const started = await t.api(key).post(`/v1/project/update/${PROJECT}`).expect(202);
    const status = (await untilEnded(t, key, started.body.statusId)) as unknown as { status: string; warningCount: number; warningsByKind: Record<string, number>; warnings: { code: string; file: string; line?: number; page?: string; message: string }[] };
    expect(status.status).toBe('success');
    expect(status.warningsByKind['broken-link']).toBe(2);
    expect(status.warningCount).toBeGreaterThanOrEqual(2);
    const broken = status.warnings.filter((w) => w.code === 'broken-link');
    expect(broken).toHaveLength(2);
    expect(broken[0]).toMatchObject({ file: 'index.mdx', page: '/' });
    expect(broken.map((w) => w.message).join('\n')).toContain('/guides/missing');
  }, 120_000);
});
