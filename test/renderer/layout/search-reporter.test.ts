import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { beforeEach, describe, expect, it } from 'vitest';
import { clientScriptSource } from '../../../renderer/theme/assets.js';

interface Reporter {
  open(): void;
  close(): void;
  typed(query: string): void;
  enter(query: string): boolean;
  click(query: string, path: string): void;
}

/**
 * Runs the real search.js in a sandbox without a search dialog (so only the reporter factory is
 * defined) and drives the reporter with a manual clock.
 */
function loadReporter() {
  const source = clientScriptSource('search.js');
  const window: Record<string, unknown> = {};
  const document = { currentScript: null, getElementById: () => null };
  vm.runInNewContext(source, { window, document });
  const factory = window['docsSearchReporter'] as (o: unknown) => Reporter;
  expect(typeof factory).toBe('function');

  const sent: Record<string, unknown>[] = [];
  let now = 0;
  let timers: { id: number; at: number; fn: () => void }[] = [];
  let nextId = 1;
  const reporter = factory({
    send: (body: Record<string, unknown>) => sent.push(body),
    count: (q: string) => (q.toLowerCase().startsWith('inst') ? 7 : 0),
    sessionId: () => 'sess-1',
    delay: 1000,
    setTimeout: (fn: () => void, ms: number) => {
      const id = nextId++;
      timers.push({ id, at: now + ms, fn });
      return id;
    },
    clearTimeout: (id: number) => {
      timers = timers.filter((t) => t.id !== id);
    },
  });
  const advance = (ms: number) => {
    now += ms;
    for (const t of timers.filter((t) => t.at <= now)) {
      timers = timers.filter((x) => x !== t);
      t.fn();
    }
  };
  /** Types a query one keystroke every `gap` ms (results appear at each keystroke). */
  const type = (query: string, gap = 120) => {
    for (let i = 1; i <= query.length; i++) {
      reporter.typed(query.slice(0, i));
      advance(gap);
    }
  };
  return { reporter, sent, advance, type };
}

describe('what counts as a search', () => {
  let t: ReturnType<typeof loadReporter>;
  beforeEach(() => {
    t = loadReporter();
    t.reporter.open();
  });

  it('does not count keystrokes: typing then pausing one second is one search', () => {
    t.type('install on rhel');
    expect(t.sent).toEqual([]);
    t.advance(1000);
    expect(t.sent).toEqual([{ type: 'search', query: 'install on rhel', resultCount: 7, sessionId: 'sess-1' }]);
  });

  it('a pause just under one second does not commit', () => {
    t.reporter.typed('install');
    t.advance(999);
    expect(t.sent).toEqual([]);
    t.reporter.typed('install rhel');
    t.advance(999);
    expect(t.sent).toEqual([]);
    t.advance(1);
    expect(t.sent.map((e) => e['query'])).toEqual(['install rhel']);
  });

  it('Enter commits at once, and the pause after it does not send the query again', () => {
    t.reporter.typed('install');
    t.reporter.enter('install');
    expect(t.sent).toHaveLength(1);
    t.advance(5000);
    expect(t.sent).toHaveLength(1);
  });

  it('the same normalised query is not sent twice in a row within one open', () => {
    t.reporter.enter('Install  on RHEL ');
    t.reporter.enter('install on rhel');
    t.reporter.typed(' INSTALL on rhel');
    t.advance(1000);
    expect(t.sent).toHaveLength(1);
    expect(t.sent[0]!['query']).toBe('Install on RHEL');
    // A different query in between makes the first one count again.
    t.reporter.enter('upgrade');
    t.reporter.enter('install on rhel');
    expect(t.sent.map((e) => e['query'])).toEqual(['Install on RHEL', 'upgrade', 'install on rhel']);
  });

  it('reopening the dialog starts a new round', () => {
    t.reporter.enter('install');
    t.reporter.close();
    t.reporter.open();
    t.reporter.enter('install');
    expect(t.sent).toHaveLength(2);
  });

  it('an empty or blank query never counts', () => {
    t.reporter.typed('   ');
    t.advance(2000);
    t.reporter.enter('  ');
    t.reporter.click(' ', '/x');
    expect(t.sent).toEqual([]);
  });

  it('closing before the pause abandons the query', () => {
    t.reporter.typed('install');
    t.reporter.close();
    t.advance(2000);
    expect(t.sent).toEqual([]);
  });

  it('a click commits its query first, then reports the click', () => {
    t.reporter.typed('install');
    t.reporter.click('install', '/guides/install');
    expect(t.sent).toEqual([
      { type: 'search', query: 'install', resultCount: 7, sessionId: 'sess-1' },
      { type: 'click', query: 'install', path: '/guides/install', sessionId: 'sess-1' },
    ]);
    t.advance(2000);
    expect(t.sent).toHaveLength(2);
  });

  it('a click after the query was already committed sends only the click', () => {
    t.reporter.typed('install');
    t.advance(1000);
    t.reporter.click('install', '/guides/install');
    expect(t.sent.map((e) => e['type'])).toEqual(['search', 'click']);
  });
});
