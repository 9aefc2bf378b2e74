import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { hashPassword } from '../reader-access/password.js';
import { parse, println, readStdin, UsageError, type Command } from './io.js';

/** Set-up helpers of reader sign-in (docs/reader-access.md): a JWT key pair, a password hash. */
export const readerAuthCommand: Command = {
  summary: 'Reader sign-in set-up: make an Ed25519 key pair for the JWT handoff, or hash a shared password',
  usage: `docs-appliance reader-auth keygen --out DIR
docs-appliance reader-auth hash-password   (the password on standard input)`,
  details: `keygen writes DIR/reader-jwt-private.pem (PKCS#8, for the login portal only; mode 0600) and
DIR/reader-jwt-public.pem (SPKI, for projects[].auth.jwt.publicKeyFile); it never overwrites a file.
hash-password prints the scrypt hash for projects[].auth.password.hash (or the variable hashEnv names).`,
  async run(argv, io) {
    const [sub, ...rest] = argv;
    if (sub === 'keygen') {
      const args = parse(rest, { out: { type: 'string' } }, false);
      if (!args.values.out) throw new UsageError('reader-auth keygen needs --out DIR');
      const dir = path.resolve(io.cwd, args.values.out);
      fs.mkdirSync(dir, { recursive: true });
      const { privateKey, publicKey } = crypto.generateKeyPairSync('ed25519');
      const privateFile = path.join(dir, 'reader-jwt-private.pem');
      const publicFile = path.join(dir, 'reader-jwt-public.pem');
      for (const f of [privateFile, publicFile]) {
        if (fs.existsSync(f)) {
          println(io.stderr, `error: ${f} exists; choose another directory (a key pair is never overwritten)`);
          return 1;
        }
      }
      fs.writeFileSync(privateFile, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600, flag: 'wx' });
      fs.writeFileSync(publicFile, publicKey.export({ type: 'spki', format: 'pem' }), { mode: 0o644, flag: 'wx' });
      println(io.stdout, `Private key (the portal signs with it; keep it secret): ${privateFile}`);
      println(io.stdout, `Public key (projects[].auth.jwt.publicKeyFile): ${publicFile}`);
      return 0;
    }
    if (sub === 'hash-password') {
      parse(rest, {}, false);
      if (io.stdin?.isTTY) println(io.stderr, 'Type the password and end with Ctrl-D:');
      // One trailing newline (echo, a here-string) is not part of the password.
      const password = (await readStdin(io, 1024)).replace(/\r?\n$/, '');
      if (!password) throw new UsageError('reader-auth hash-password reads the password from standard input, which was empty');
      println(io.stdout, await hashPassword(password));
      return 0;
    }
    throw new UsageError(`unknown reader-auth subcommand "${sub ?? ''}"`);
  },
};
