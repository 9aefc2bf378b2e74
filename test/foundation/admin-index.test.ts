import supertest from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestAppliance, type TestAppliance } from '../helpers/appliance.js';

let t: TestAppliance | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** What a browser sends for a page it was pointed at. */
const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

describe('GET / on the admin listener', () => {
  it('sends a browser to the console', async () => {
    t = createTestAppliance();
    const res = await t.api().get('/').set('Accept', BROWSER_ACCEPT).expect(302);
    expect(res.headers.location).toBe('/console');
    // The console answers there (its sign-in page for a browser with no session); it is HTML, not in the API document.
    const console = await supertest(t.admin).get('/console').set('Accept', BROWSER_ACCEPT);
    expect(console.status).toBe(303);
    expect(console.headers.location).toBe('/console/sign-in');
  });

  it('tells any other client where the console and the API description are', async () => {
    t = createTestAppliance();
    for (const accept of [undefined, '*/*', 'application/json']) {
      const req = t.api().get('/');
      const res = await (accept ? req.set('Accept', accept) : req).expect(200);
      expect(res.body, accept).toEqual({ service: 'docs-appliance admin API', openapi: '/openapi.json', console: '/console' });
    }
    const doc = await t.api().get('/openapi.json').expect(200);
    expect(doc.body.paths['/'].get.responses).toHaveProperty('302');
  });

  it('with the console off, a browser gets the JSON pointer too, without a console', async () => {
    t = createTestAppliance({ config: { console: { enabled: false } } });
    const res = await t.api().get('/').set('Accept', BROWSER_ACCEPT).expect(200);
    expect(res.body).toEqual({ service: 'docs-appliance admin API', openapi: '/openapi.json' });
  });
});
