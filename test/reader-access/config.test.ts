import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { parseConfig } from '../../config/load.js';
import { openDatabase } from '../../data/db.js';
import { migrations } from '../../data/migrations/index.js';
import { runCli } from '../helpers/cli.js';
import { loadJwtPublicKey } from '../../app/reader-access/jwt.js';
import { keyPair } from './helpers.js';

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'reader-auth-cfg-'));
const config = (auth: unknown, cwd?: string) =>
  parseConfig(
    { stateDir: tmp(), organizations: [{ id: 'o', name: 'O' }], projects: [{ id: 'a'.repeat(24), orgId: 'o', name: 'P', domain: 'docs.example', sourceDir: '/tmp', auth }] },
    { source: 'test', ...(cwd ? { cwd } : {}) },
  );
const problem = (auth: unknown, cwd?: string): string => {
  try {
    config(auth, cwd);
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error('accepted');
};

describe('projects[].auth in the config', () => {
  test('a JWT project: the key file is resolved against the working directory and checked at load; defaults filled', () => {
    const dir = tmp();
    keyPair(dir);
    const c = config({ method: 'jwt', jwt: { publicKeyFile: 'public.pem', loginUrl: 'https://portal.example/login' } }, dir);
    expect(c.projects[0]!.auth).toEqual({ method: 'jwt', jwt: { publicKeyFile: path.join(dir, 'public.pem'), loginUrl: 'https://portal.example/login' }, session: { idleMinutes: 10080, maxHours: 336 } });
  });

  test('clear errors: missing file, a private key, an RSA key, not PEM, both or neither login URL, too many login URLs', () => {
    const dir = tmp();
    expect(problem({ method: 'jwt', jwt: { publicKeyFile: 'nope.pem', loginUrl: 'https://p.example/' } }, dir)).toContain('projects.0.auth.jwt.publicKeyFile: cannot read the public key file');
    const { privateKey } = crypto.generateKeyPairSync('ed25519');
    fs.writeFileSync(path.join(dir, 'private.pem'), privateKey.export({ type: 'pkcs8', format: 'pem' }));
    expect(problem({ method: 'jwt', jwt: { publicKeyFile: 'private.pem', loginUrl: 'https://p.example/' } }, dir)).toContain('holds a private key');
    fs.writeFileSync(path.join(dir, 'rsa.pem'), crypto.generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ type: 'spki', format: 'pem' }));
    expect(problem({ method: 'jwt', jwt: { publicKeyFile: 'rsa.pem', loginUrl: 'https://p.example/' } }, dir)).toContain('is a rsa key; the JWT handoff is signed with EdDSA and needs an Ed25519 public key');
    fs.writeFileSync(path.join(dir, 'junk.pem'), 'hello');
    expect(problem({ method: 'jwt', jwt: { publicKeyFile: 'junk.pem', loginUrl: 'https://p.example/' } }, dir)).toContain('is not a PEM public key');
    keyPair(dir);
    expect(problem({ method: 'jwt', jwt: { publicKeyFile: 'public.pem' } }, dir)).toContain('set exactly one of loginUrl and loginUrls');
    const many = Array.from({ length: 11 }, (_, i) => ({ name: `p${i}`, url: `https://p${i}.example/` }));
    expect(problem({ method: 'jwt', jwt: { publicKeyFile: 'public.pem', loginUrls: many } }, dir)).toContain('projects.0.auth.jwt.loginUrls');
  });

  test('method settings must match the method; oauth needs an issuer or both endpoints; delimiter 1–4 characters; strict keys', () => {
    expect(problem({ method: 'oauth' })).toContain('method "oauth" needs its settings under auth.oauth');
    expect(problem({ method: 'password', password: { hash: 'x' } })).toContain('hash-password');
    expect(problem({ method: 'password', password: {} })).toContain('set exactly one of hash and hashEnv');
    expect(problem({ method: 'password', password: { hashEnv: 'H' }, oauth: { issuer: 'https://id.example', clientId: 'c' } })).toContain('only the settings of the chosen method');
    expect(problem({ method: 'oauth', oauth: { clientId: 'c', authorizationUrl: 'https://id.example/auth' } })).toContain('set issuer (OpenID discovery) or both authorizationUrl and tokenUrl');
    expect(problem({ method: 'oauth', oauth: { issuer: 'https://id.example', clientId: 'c', tokenClaims: { source: 'id_token', groupsDelimiter: '12345' } } })).toContain('groupsDelimiter');
    expect(problem({ method: 'oauth', oauth: { issuer: 'https://id.example', clientId: 'c', clientSecret: 's', clientSecretEnv: 'S' } })).toContain('not both');
    expect(problem({ method: 'password', password: { hashEnv: 'H' }, sesion: {} })).toContain('sesion');
    const ok = config({ method: 'oauth', oauth: { issuer: 'https://id.example', clientId: 'c', tokenClaims: { source: 'id_token' } } });
    expect(ok.projects[0]!.auth!.oauth!.tokenClaims).toEqual({ source: 'id_token', groupsClaim: 'groups' });
  });

  test('CLI: reader-auth keygen writes a PKCS#8 private key (0600) and the SPKI public key the config takes; never overwrites', async () => {
    const dir = tmp();
    const out = await runCli(['reader-auth', 'keygen', '--out', dir]);
    expect(out.code).toBe(0);
    const priv = fs.readFileSync(path.join(dir, 'reader-jwt-private.pem'), 'utf8');
    expect(priv).toContain('-----BEGIN PRIVATE KEY-----');
    expect(fs.statSync(path.join(dir, 'reader-jwt-private.pem')).mode & 0o777).toBe(0o600);
    const pub = loadJwtPublicKey(path.join(dir, 'reader-jwt-public.pem'));
    const sig = crypto.sign(null, Buffer.from('x'), crypto.createPrivateKey(priv));
    expect(crypto.verify(null, Buffer.from('x'), pub, sig)).toBe(true);
    const again = await runCli(['reader-auth', 'keygen', '--out', dir]);
    expect(again.code).toBe(1);
    expect(fs.readFileSync(path.join(dir, 'reader-jwt-private.pem'), 'utf8')).toBe(priv);
  });

  test('migration 018 on a fresh database: reader_sessions with no column for an address or a user agent', () => {
    const db = openDatabase(path.join(tmp(), 'db.sqlite'));
    expect(db.pragma('user_version', { simple: true })).toBe(migrations.at(-1)!.id);
    const cols = (db.prepare('PRAGMA table_info(reader_sessions)').all() as { name: string }[]).map((c) => c.name);
    expect(cols).toEqual(['id_hash', 'project_id', 'method', 'groups', 'content', 'api_inputs', 'created_at', 'last_seen_at', 'expires_at']);
    db.close();
  });
});
