import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type supertest from 'supertest';
import { createTestAppliance, TEST_ORG, TEST_PROJECT, OTHER_ORG, OTHER_PROJECT } from '../helpers/appliance.js';
import type { ConfigInput } from '../../config/schema.js';
import type { ReaderAccess } from '../../app/reader-access/types.js';
import type { TestAppliance } from '../helpers/appliance.js';

export const HOST = 'docs.test.internal';
export const OTHER_HOST = 'docs.other.internal';

/** An appliance whose test project has `auth` (and another project without it). */
export function authAppliance(auth: NonNullable<ConfigInput['projects']>[number]['auth'], extra: Partial<ConfigInput> = {}, domain = HOST) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reader-auth-src-'));
  fs.writeFileSync(path.join(dir, 'docs.json'), JSON.stringify({ name: 'Auth docs', navigation: { pages: ['index'] } }));
  fs.writeFileSync(path.join(dir, 'index.mdx'), '---\ntitle: Home\n---\nHello\n');
  return createTestAppliance({
    config: {
      projects: [
        { id: TEST_PROJECT, orgId: TEST_ORG, name: 'Test docs', domain, sourceDir: dir, auth },
        { id: OTHER_PROJECT, orgId: OTHER_ORG, name: 'Other docs', domain: OTHER_HOST, sourceDir: dir },
      ],
      ...extra,
    },
  });
}

/** An Ed25519 pair, the public half written as the PEM file the config names. */
export function keyPair(dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reader-jwt-'))) {
  const { privateKey, publicKey } = crypto.generateKeyPairSync('ed25519');
  const publicKeyFile = path.join(dir, 'public.pem');
  fs.writeFileSync(publicKeyFile, publicKey.export({ type: 'spki', format: 'pem' }));
  return { privateKey, publicKeyFile };
}

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

/** A compact JWS signed as a portal does (jose's SignJWT with alg EdDSA), with node:crypto. */
export function signJwt(payload: Record<string, unknown>, key: crypto.KeyObject, header: Record<string, unknown> = { alg: 'EdDSA' }): string {
  const input = `${b64(header)}.${b64(payload)}`;
  return `${input}.${crypto.sign(null, Buffer.from(input), key).toString('base64url')}`;
}

/** The reader cookie a response set ("name=value"), or undefined. */
export function readerCookieOf(res: supertest.Response): string | undefined {
  const all = ([] as string[]).concat((res.headers['set-cookie'] as unknown as string[] | undefined) ?? []);
  const c = all.find((s) => s.startsWith('da_reader='));
  return c?.split(';')[0];
}

export function setCookieHeader(res: supertest.Response, name: string): string | undefined {
  const all = ([] as string[]).concat((res.headers['set-cookie'] as unknown as string[] | undefined) ?? []);
  return all.find((s) => s.startsWith(`${name}=`));
}

/** The ReaderAccess the site listener is given (the reader-access feature carries it). */
export function readerAccessOf(t: TestAppliance): { access: ReaderAccess } {
  const f = t.features.find((x) => x.name === 'reader-access') as unknown as { access: ReaderAccess } | undefined;
  if (!f) throw new Error('no reader-access feature');
  return { access: f.access };
}
