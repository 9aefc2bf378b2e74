import supertest from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { redactUrl } from '../../app/logger.js';
import { createTestAppliance } from '../helpers/appliance.js';
import { httpServer, type TestServer } from '../loader/helpers/servers.js';
import { fastLoader } from './helpers.js';

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

/** Values a presigned S3 or GCS link carries; none may appear in a log line or /readyz. */
const SECRETS = {
  amzCredential: 'AKIAEXAMPLEKEY%2F20261101%2Fus-east-1%2Fs3%2Faws4_request',
  amzToken: 'FQoGZXIvYXdzEXAMPLESESSIONTOKEN',
  amzSignature: '5d672d79c15b13162d9279b0855cfba6789a8edb4c82c400e06b5924a6f2b5d7',
  googCredential: 'svc%40project.iam.gserviceaccount.com%2F20261101%2Fauto%2Fstorage%2Fgoog4_request',
  googSignature: '1b2d3c4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90a',
  sig: 'sv-2026-sig-value',
};

const s3Query = `X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=${SECRETS.amzCredential}&X-Amz-Date=20261101T000000Z&X-Amz-Expires=3600&X-Amz-Security-Token=${SECRETS.amzToken}&X-Amz-SignedHeaders=host&X-Amz-Signature=${SECRETS.amzSignature}`;
const gcsQuery = `X-Goog-Algorithm=GOOG4-RSA-SHA256&X-Goog-Credential=${SECRETS.googCredential}&X-Goog-Date=20261101T000000Z&X-Goog-Expires=600&X-Goog-SignedHeaders=host&X-Goog-Signature=${SECRETS.googSignature}`;

function expectNoSecret(text: string): void {
  for (const [name, value] of Object.entries(SECRETS)) {
    expect(text, name).not.toContain(value);
    expect(text, name).not.toContain(decodeURIComponent(value));
  }
}

async function server(): Promise<TestServer> {
  // /start.zip redirects to a presigned bucket link, which has expired (403).
  const srv = await httpServer((req, res) => {
    if (req.url!.startsWith('/start.zip')) res.writeHead(302, { location: `/bucket/bundle.zip?${s3Query}` }).end();
    else res.writeHead(403).end();
  });
  cleanup.push(() => srv.close());
  return srv;
}

describe('presigned cloud links never reach a log line or /readyz (finding 10)', () => {
  for (const [label, query] of [
    ['S3, directly', s3Query],
    ['GCS, directly', gcsQuery],
    ['S3, through a redirect', `sig=${SECRETS.sig}`],
  ] as const) {
    it(label, async () => {
      const srv = await server();
      const path = label.includes('redirect') ? '/start.zip' : '/bucket/bundle.zip';
      const t = createTestAppliance({ config: { staticExport: { enabled: true, bundleUrl: `${srv.url}${path}?${query}`, ...fastLoader } } });
      cleanup.push(() => t.close());
      await t.start();
      const deadline = Date.now() + 10_000;
      let body = '';
      while (Date.now() < deadline) {
        body = (await t.api().get('/readyz')).text;
        if (body.includes('HTTP 403')) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      // The reason names the link without any of its query.
      expect(body).toMatch(new RegExp(`last load refused: http://127\\.0\\.0\\.1:\\d+/bucket/bundle\\.zip\\?…: HTTP 403`));
      expect(body).not.toMatch(/X-Amz|X-Goog|sig=/);
      expectNoSecret(body);
      // Logs keep the parameter names, never a value.
      await supertest(t.site).get(`/page?${gcsQuery}&%73ig=${SECRETS.sig}&X-Amz-Security-Token=${SECRETS.amzToken}`);
      const logs = t.logs.join('');
      expectNoSecret(logs);
      expect(logs).toContain('X-Goog-Signature=[REDACTED]');
      expect(logs).toContain('%73ig=[REDACTED]');
      if (label.includes('redirect')) expect(logs).toMatch(/"from":"http:\/\/127\.0\.0\.1:\d+\/start\.zip\?sig=\[REDACTED\]","to":"http:\/\/127\.0\.0\.1:\d+\/bucket\/bundle\.zip\?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=\[REDACTED\]&.*&X-Amz-Signature=\[REDACTED\]","status":302,"msg":"bundle download redirected"/);
    });
  }

  it('redactUrl blanks every value but the harmless ones, after decoding names; userinfo and fragments too', () => {
    expect(redactUrl('https://u:p@bucket.example/b.zip?X-Amz-Expires=60&Signature=s&%73ignature=t&token&expires=9#access_token=x')).toBe(
      'https://[REDACTED]@bucket.example/b.zip?X-Amz-Expires=60&Signature=[REDACTED]&%73ignature=[REDACTED]&[REDACTED]&expires=9#[REDACTED]',
    );
    expect(redactUrl('/x?a=1', { query: 'drop' })).toBe('/x?…');
    expect(redactUrl('/plain/path')).toBe('/plain/path');
  });
});
