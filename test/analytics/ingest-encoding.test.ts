import zlib from 'node:zlib';
import supertest from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestAppliance, type TestAppliance } from '../helpers/appliance.js';
import { analyticsOf, serveProject, SITE_HOST } from './helpers.js';

let t: TestAppliance | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const event = Buffer.from(JSON.stringify({ type: 'search', query: 'encoded', resultCount: 1, sessionId: 's1' }));
const encoders: Record<string, (b: Buffer) => Buffer> = { gzip: zlib.gzipSync, deflate: zlib.deflateSync, br: zlib.brotliCompressSync };
/** superagent would JSON-encode a Buffer sent as application/json: the bytes go as they are. */
const asIs = (b: unknown) => b as string;
const errorLines = (app: TestAppliance) => app.logs.filter((l) => /"level":(50|60)/.test(l));

function post(app: TestAppliance, encoding: string, body: Buffer) {
  return supertest(app.site).post('/_/events').set('Host', SITE_HOST).set('Content-Type', 'application/json').set('Content-Encoding', encoding).serialize(asIs).send(body);
}

/** Issue 14, finding 14: a body that does not decode as its Content-Encoding says is the client's error. */
describe('beacon bodies and their Content-Encoding', () => {
  it('accepts gzip, deflate and br; answers 400 for each when the bytes are not what the header says', async () => {
    t = createTestAppliance();
    serveProject(t);
    for (const [encoding, encode] of Object.entries(encoders)) {
      await post(t, encoding, encode(event)).expect(202);
      const compressed = encode(Buffer.from(JSON.stringify(Array.from({ length: 40 }, (_, i) => ({ type: 'search', query: `q${i}`, resultCount: 1, sessionId: `s${i}` })))));
      for (const bad of [event, compressed.subarray(0, compressed.length >> 1), Buffer.concat([compressed.subarray(0, 8), Buffer.alloc(64, 0xff)]), Buffer.from([0xff])]) {
        const res = await post(t, encoding, bad);
        expect(res.status, `${encoding}: ${bad.subarray(0, 8).toString('hex')}`).toBe(400);
        expect(res.body.error).toMatch(new RegExp(`could not be decoded as its Content-Encoding \\(${encoding}\\)`));
      }
    }
    analyticsOf(t).flush();
    expect(errorLines(t)).toEqual([]);
  });

  it('answers 415 to an encoding it does not decode', async () => {
    t = createTestAppliance();
    for (const encoding of ['compress', 'gzip, br', 'x-unknown']) {
      const res = await post(t, encoding, event);
      expect(res.status, encoding).toBe(415);
    }
    expect(errorLines(t)).toEqual([]);
  });
});

describe('admin API bodies and their Content-Encoding', () => {
  it('answers 400 UNDECODABLE_BODY to a body that does not decode, for each encoding', async () => {
    t = createTestAppliance();
    const key = t.createKey();
    for (const encoding of Object.keys(encoders)) {
      const res = await t.api(key).post('/v1/static-export/jobs').set('Content-Type', 'application/json').set('Content-Encoding', encoding).serialize(asIs).send(Buffer.from('{"not": "compressed"}')).expect(400);
      expect(res.body.error).toMatch(new RegExp(`Content-Encoding \\(${encoding}\\)`));
    }
    // A well-formed compressed body still reaches the route (which then judges its content).
    const ok = await t.api(key).post('/v1/static-export/jobs').set('Content-Type', 'application/json').set('Content-Encoding', 'gzip').serialize(asIs).send(zlib.gzipSync(Buffer.from('{"unexpected": 1}')));
    expect(ok.body.error ?? '').not.toMatch(/Content-Encoding/);
    expect(errorLines(t)).toEqual([]);
  });
});
