import { describe, expect, it } from 'vitest';
import { sequentialRequestIds } from '../../app/http/sequential-request-id.js';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('sequential request ids (the cache-hit path)', () => {
  it('are shaped like randomUUID and never repeat within a generator', () => {
    const next = sequentialRequestIds();
    const seen = new Set<string>();
    for (let i = 0; i < 10_000; i++) {
      const id = next();
      expect(id).toMatch(UUID_V4);
      seen.add(id);
    }
    expect(seen.size).toBe(10_000);
  });

  it('differ between generators (processes): each draws its own random prefix', () => {
    const a = sequentialRequestIds()();
    const b = sequentialRequestIds()();
    expect(a.slice(0, 24)).not.toBe(b.slice(0, 24));
  });
});
