import supertest from 'supertest';
import type { TestAppliance } from '../helpers/appliance.js';
import type { AnalyticsFeature } from '../../app/analytics/feature.js';

export const SITE_HOST = 'docs.test.internal';

/** The analytics feature of a test appliance (to flush its write buffer, run retention). */
export function analyticsOf(t: TestAppliance): AnalyticsFeature {
  const f = t.features.find((x) => x.name === 'analytics');
  if (!f) throw new Error('analytics feature is not mounted');
  return f as AnalyticsFeature;
}

/** POST /_/events on the site app as the served test project's domain. */
export function postEvents(t: TestAppliance, body: unknown, opts: { host?: string; contentType?: string; ip?: string } = {}) {
  const req = supertest(t.site)
    .post('/_/events')
    .set('Host', opts.host ?? SITE_HOST)
    .set('Content-Type', opts.contentType ?? 'application/json');
  if (opts.ip) req.set('X-Forwarded-For', opts.ip);
  return req.send(typeof body === 'string' ? body : JSON.stringify(body));
}
