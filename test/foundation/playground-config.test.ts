import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../../config/load.js';

const org = { id: 'org_a', name: 'A', plan: 'enterprise' };
const withPlayground = (playground: unknown) => ({
  stateDir: '/tmp/x',
  organizations: [org],
  projects: [{ id: '65a1f0c2e4b0a1b2c3d4e5f6', orgId: 'org_a', name: 'A docs', domain: 'docs.a.internal', sourceDir: '/srv/a', playground }],
});

describe('projects[].playground', () => {
  it('takes a base URL and origins, with the proxy off and bounded limits by default', () => {
    const c = parseConfig(withPlayground({ baseUrl: 'http://10.0.0.5:8080/v1', allowedOrigins: ['https://api.acme.internal', 'http://127.0.0.1:9000'] }), { source: 'test' });
    expect(c.projects[0]!.playground).toEqual({
      baseUrl: 'http://10.0.0.5:8080/v1',
      allowedOrigins: ['https://api.acme.internal', 'http://127.0.0.1:9000'],
      proxy: false,
      timeoutMs: 15_000,
      maxRequestBytes: 1024 * 1024,
      maxResponseBytes: 8 * 1024 * 1024,
      maxConcurrent: 16,
      bodyTimeoutMs: 10_000,
      maxPerClient: 4,
    });
  });

  it('refuses anything but bare http(s) origins, a base URL with credentials or a query, and unbounded limits', () => {
    for (const bad of ['https://api.acme.internal/', 'https://api.acme.internal/v1', 'ftp://files.acme.internal', '*', 'api.acme.internal', "'self'"]) {
      expect(() => parseConfig(withPlayground({ allowedOrigins: [bad] }), { source: 'test' }), bad).toThrow(ConfigError);
    }
    for (const bad of ['https://user:pw@api.acme.internal', 'https://api.acme.internal/v1?key=1', 'javascript:alert(1)']) {
      expect(() => parseConfig(withPlayground({ baseUrl: bad }), { source: 'test' }), bad).toThrow(ConfigError);
    }
    expect(() => parseConfig(withPlayground({ timeoutMs: 10 * 60_000 }), { source: 'test' })).toThrow(ConfigError);
    for (const bad of [{ bodyTimeoutMs: 10 * 60_000 }, { bodyTimeoutMs: 10 }, { maxPerClient: 0 }, { maxPerClient: 1000 }]) {
      expect(() => parseConfig(withPlayground(bad), { source: 'test' }), JSON.stringify(bad)).toThrow(ConfigError);
    }
    expect(() => parseConfig(withPlayground({ allowedOrigins: [], unknownKey: 1 }), { source: 'test' })).toThrow(ConfigError);
  });
});
