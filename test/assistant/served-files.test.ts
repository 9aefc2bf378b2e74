/** llms.txt, llms-full.txt and `<path>.md` as the site listener serves them from a loaded bundle. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assistantRig, type AssistantRig } from './helpers.js';

describe('machine-readable files on the site listener', () => {
  let rig: AssistantRig;
  beforeAll(async () => {
    rig = await assistantRig();
  }, 120_000);
  afterAll(() => rig?.close());

  it('serves llms.txt and llms-full.txt as text, linking pages that resolve', async () => {
    const llms = await fetch(`${rig.siteOrigin}/llms.txt`);
    expect(llms.status).toBe(200);
    expect(llms.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const body = await llms.text();
    const links = [...body.matchAll(/\]\(https:\/\/docs\.test\.internal(\/[^)]+)\)/g)].map((m) => m[1]!);
    expect(links.length).toBe(6);
    for (const link of links) {
      const page = await fetch(`${rig.siteOrigin}${link}`);
      expect(page.status, link).toBe(200);
      expect(page.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    }
    const full = await fetch(`${rig.siteOrigin}/llms-full.txt`);
    expect(await full.text()).toContain('Invoices are emailed on the first day of each month');
  });
});
