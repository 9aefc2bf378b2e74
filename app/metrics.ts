import client from 'prom-client';

/** One registry per app instance (a fresh app per test must not share counters). */
export function createMetrics(options: { defaultMetrics?: boolean } = {}) {
  const registry = new client.Registry();
  if (options.defaultMetrics) client.collectDefaultMetrics({ register: registry, prefix: 'docs_appliance_' });
  const httpRequests = new client.Counter({
    name: 'docs_appliance_http_requests_total',
    help: 'HTTP requests answered, by listener, method, route template and status',
    labelNames: ['listener', 'method', 'route', 'status'] as const,
    registers: [registry],
  });
  const httpDuration = new client.Histogram({
    name: 'docs_appliance_http_request_duration_seconds',
    help: 'Time to answer an HTTP request',
    labelNames: ['listener', 'method', 'route'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
    registers: [registry],
  });
  return { registry, httpRequests, httpDuration };
}

export type Metrics = ReturnType<typeof createMetrics>;
