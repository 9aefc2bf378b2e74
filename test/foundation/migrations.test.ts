import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { migrate, openDatabase } from '../../data/db.js';
import { migrations } from '../../data/migrations/index.js';

const tmpDb = () => path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'db-')), 'test.db');

describe('migrations', () => {
  it('bring a fresh database to the latest version with the pragmas set', () => {
    const db = openDatabase(tmpDb());
    const latest = Math.max(...migrations.map((m) => m.id));
    expect(db.pragma('user_version', { simple: true })).toBe(latest);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('synchronous', { simple: true })).toBe(1);
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('busy_timeout', { simple: true })).toBe(5000);
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all().map((r) => (r as { name: string }).name);
    expect(tables).toEqual(expect.arrayContaining(['organizations', 'projects', 'admin_keys', 'rate_limit_hits', 'settings']));
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    db.close();
  });

  it('are numbered uniquely and in order', () => {
    const ids = migrations.map((m) => m.id).sort((a, b) => a - b);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids[0]).toBe(1);
  });

  it('apply nothing the second time', () => {
    const file = tmpDb();
    openDatabase(file).close();
    const db = openDatabase(file);
    expect(migrate(db, migrations).applied).toEqual([]);
    db.close();
  });

  it('roll a failing migration back entirely and keep the previous version', () => {
    const file = tmpDb();
    const db = openDatabase(file, { migrations: [{ id: 1, name: 'one', up: 'CREATE TABLE a (x INTEGER);' }] });
    expect(() => migrate(db, [{ id: 2, name: 'broken', up: 'CREATE TABLE b (x INTEGER); INSERT INTO nope VALUES (1);' }])).toThrow(/no such table: nope/);
    expect(db.pragma('user_version', { simple: true })).toBe(1);
    expect(db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'b'").get()).toEqual({ n: 0 });
    db.close();
  });

  it('refuse a database written by a newer release', () => {
    const file = tmpDb();
    const db = openDatabase(file, { migrations: [{ id: 1, name: 'one', up: '' }, { id: 2, name: 'two', up: 'CREATE TABLE t (x INTEGER);' }] });
    db.close();
    expect(() => openDatabase(file, { migrations: [{ id: 1, name: 'one', up: '' }] })).toThrow(/schema version 2 is newer than this release knows \(1\)/);
  });

  it('refuse duplicate numbers', () => {
    const db = openDatabase(':memory:', { migrations: [] });
    expect(() => migrate(db, [{ id: 1, name: 'a', up: '' }, { id: 1, name: 'b', up: '' }])).toThrow(/Duplicate migration number 1/);
    db.close();
  });
});
