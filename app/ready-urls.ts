import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config/schema.js';
import { INITIAL_KEY_FILE } from './bootstrap.js';

/** Where an operator goes once the appliance listens: the fields of the "listening" log line. */
export interface ReadyUrls {
  siteUrl: string;
  adminUrl: string;
  /** Absent when console.enabled is false. */
  consoleUrl?: string;
  /** The initial admin key's file while it is there (written this start, or not deleted yet). */
  initialKeyFile?: string;
}

/** A listener's address as a browser on this machine reaches it: a wildcard address is `localhost`. */
function hostUrl(host: string, port: number): string {
  const name = host === '0.0.0.0' || host === '::' || host === '' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `http://${name}:${port}/`;
}

export function readyUrls(config: Readonly<Config>, ports: { adminPort: number; sitePort: number }): ReadyUrls {
  // admin.publicUrl is how clients reach the admin API (behind a proxy); the bound address otherwise.
  const adminUrl = config.admin.publicUrl ? `${config.admin.publicUrl.replace(/\/+$/, '')}/` : hostUrl(config.admin.host, ports.adminPort);
  const keyFile = path.join(config.stateDir, INITIAL_KEY_FILE);
  return {
    siteUrl: hostUrl(config.site.host, ports.sitePort),
    adminUrl,
    ...(config.console.enabled ? { consoleUrl: `${adminUrl}console` } : {}),
    ...(fs.existsSync(keyFile) ? { initialKeyFile: keyFile } : {}),
  };
}
