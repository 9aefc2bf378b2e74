import { describe, expect, it } from 'vitest';
import { createSessionTracker, SESSION_RULES } from '../../app/analytics/sessions.js';
import type { IngestEvent } from '../../app/analytics/events.js';

const search = (sessionId: string, norm: string, atMs: number): IngestEvent => ({ projectId: 'p', kind: 0, norm, atMs, resultCount: 1, path: null, sessionId });

describe('session tracker', () => {
  it('stays within its bound, forgetting the least recently used sessions first', () => {
    const tracker = createSessionTracker({ ...SESSION_RULES, maxTracked: 100 });
    const stored = tracker.process(Array.from({ length: 1000 }, (_, i) => search(`s${i}`, 'q', i)));
    expect(stored).toHaveLength(1000);
    expect(tracker.size()).toBeLessThanOrEqual(100);
    // The most recent sessions are still known: a repeat within 30 s is not counted...
    expect(tracker.process([search('s999', 'q', 1500)])).toHaveLength(0);
    // ...a forgotten one counts again (the documented cost of the bound).
    expect(tracker.process([search('s0', 'q', 1600)])).toHaveLength(1);
  });
});
