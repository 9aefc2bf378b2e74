import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { placeJsonError } from './json-error.js';
import { configSchema, type Config } from './schema.js';
import { closest, keysAt } from './suggest.js';
import { loadJwtPublicKey } from '../app/reader-access/jwt.js';

/** A configuration that cannot be used. The message names the key and the problem. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

/** Environment variables that override the file (DESIGN section 7). Extend, never rename. */
const ENV_OVERRIDES: { env: string; key: string[]; type: 'string' | 'port' | 'boolean' }[] = [
  { env: 'DOCS_APPLIANCE_STATE_DIR', key: ['stateDir'], type: 'string' },
  { env: 'DOCS_APPLIANCE_ADMIN_PORT', key: ['admin', 'port'], type: 'port' },
  { env: 'DOCS_APPLIANCE_SITE_PORT', key: ['site', 'port'], type: 'port' },
  { env: 'DOCS_APPLIANCE_ADMIN_PUBLIC_URL', key: ['admin', 'publicUrl'], type: 'string' },
  { env: 'DOCS_APPLIANCE_LOG_LEVEL', key: ['log', 'level'], type: 'string' },
  { env: 'DOCS_APPLIANCE_LOG_FORMAT', key: ['log', 'format'], type: 'string' },
  { env: 'DOCS_APPLIANCE_STATIC_EXPORT_ENABLED', key: ['staticExport', 'enabled'], type: 'boolean' },
  { env: 'DOCS_APPLIANCE_STATIC_EXPORT_BUNDLE_URL', key: ['staticExport', 'bundleUrl'], type: 'string' },
  { env: 'DOCS_APPLIANCE_STATIC_EXPORT_VERSION', key: ['staticExport', 'version'], type: 'string' },
];

/** The environment variable that overrides a config key (`admin.port` → DOCS_APPLIANCE_ADMIN_PORT), if there is one. */
export function envVariableFor(key: string): string | undefined {
  return ENV_OVERRIDES.find((o) => o.key.join('.') === key)?.env;
}

export interface LoadConfigOptions {
  /** Path of the JSON file; defaults to $DOCS_APPLIANCE_CONFIG; none = embedded defaults. */
  file?: string | undefined;
  env?: NodeJS.ProcessEnv;
  /** Directory relative paths (stateDir, sourceDir) are resolved against; default: cwd. */
  cwd?: string;
}

export function loadConfig(options: LoadConfigOptions = {}): Readonly<Config> {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const file = options.file ?? (env.DOCS_APPLIANCE_CONFIG || undefined);
  const raw = file ? readConfigFile(path.resolve(cwd, file)) : {};
  applyEnv(raw, env);
  return parseConfig(raw, { cwd, source: file ?? 'embedded defaults' });
}

/** Validate an already-parsed object (tests and the file loader share this path). */
export function parseConfig(raw: unknown, where: { cwd?: string; source?: string } = {}): Readonly<Config> {
  const result = configSchema.safeParse(raw);
  if (!result.success) {
    throw new ConfigError(`Invalid configuration (${where.source ?? 'object'}):\n${formatIssues(result.error)}`);
  }
  const config = result.data;
  checkReferences(config, where.source ?? 'object');
  const cwd = where.cwd ?? process.cwd();
  config.stateDir = path.resolve(cwd, config.stateDir);
  for (const p of config.projects) if (p.sourceDir !== undefined) p.sourceDir = path.resolve(cwd, p.sourceDir);
  checkReaderKeys(config, cwd, where.source ?? 'object');
  if (config.staticExport.enabled && !config.staticExport.bundleUrl) {
    throw new ConfigError(`Invalid configuration (${where.source ?? 'object'}):\n- staticExport.bundleUrl: required when staticExport.enabled is true`);
  }
  return deepFreeze(config);
}

function readConfigFile(file: string): Record<string, unknown> {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw new ConfigError(`Cannot read config file ${file}: ${(err as Error).message}`);
  }
  // Editors on Windows save UTF-8 with a byte order mark; JSON.parse would reject it.
  text = text.replace(/^\uFEFF/, '');
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw new ConfigError(`Config file ${file} must contain a JSON object`);
    }
    return parsed as Record<string, unknown>;
  } catch (err) {
    if (err instanceof ConfigError) throw err;
    const { line, column, reason } = placeJsonError(text, err as Error);
    throw new ConfigError(`Config file ${file} is not valid JSON: line ${line}, column ${column}: ${reason}\n${pointAt(text, line, column)}`);
  }
}

/** The line with the error and a caret under its column, for the terminal. */
function pointAt(text: string, line: number, column: number): string {
  const content = (text.split(/\r\n|\r|\n/)[line - 1] ?? '').replace(/\t/g, ' ');
  const start = Math.max(0, column - 60);
  const gutter = `${line} | `;
  return `${gutter}${content.slice(start, start + 120)}\n${' '.repeat(gutter.length - 2)}| ${' '.repeat(column - 1 - start)}^`;
}

function applyEnv(target: Record<string, unknown>, env: NodeJS.ProcessEnv): void {
  for (const o of ENV_OVERRIDES) {
    const value = env[o.env];
    if (value === undefined || value === '') continue;
    let parsed: unknown = value;
    if (o.type === 'port') {
      if (!/^\d+$/.test(value)) throw new ConfigError(`Invalid configuration:\n- ${o.env}: must be a port number (0-65535), got "${value}"`);
      parsed = Number(value);
    } else if (o.type === 'boolean') {
      if (!/^(true|false|1|0)$/i.test(value)) throw new ConfigError(`Invalid configuration:\n- ${o.env}: must be true or false, got "${value}"`);
      parsed = /^(true|1)$/i.test(value);
    }
    let node = target;
    for (const k of o.key.slice(0, -1)) {
      const next = node[k];
      if (typeof next !== 'object' || next === null || Array.isArray(next)) node[k] = {};
      node = node[k] as Record<string, unknown>;
    }
    node[o.key[o.key.length - 1]!] = parsed;
  }
}

function formatIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const key = issue.path.length ? issue.path.map(String).join('.') : '(root)';
      if (issue.code === 'unrecognized_keys') {
        const prefix = issue.path.length ? `${key}.` : '';
        const known = keysAt(configSchema, issue.path);
        return issue.keys
          .map((k) => {
            const near = closest(k, known);
            return `- ${prefix}${k}: unknown key${near ? `; did you mean "${prefix}${near}"?` : ''}`;
          })
          .join('\n');
      }
      return `- ${key}: ${issue.message}`;
    })
    .join('\n');
}

function checkReferences(config: Config, source: string): void {
  const problems: string[] = [];
  const orgIds = new Set<string>();
  config.organizations.forEach((o, i) => {
    if (orgIds.has(o.id)) problems.push(`- organizations.${i}.id: duplicate organization id "${o.id}"`);
    orgIds.add(o.id);
  });
  const projectIds = new Set<string>();
  const domains = new Set<string>();
  config.projects.forEach((p, i) => {
    if (!orgIds.has(p.orgId)) problems.push(`- projects.${i}.orgId: no organization "${p.orgId}" is declared in organizations`);
    if (projectIds.has(p.id)) problems.push(`- projects.${i}.id: duplicate project id "${p.id}"`);
    if (domains.has(p.domain.toLowerCase())) problems.push(`- projects.${i}.domain: domain "${p.domain}" is used by another project`);
    if (p.publish?.source === 'git' && !p.repository) problems.push(`- projects.${i}.publish.source: "git" needs the project's repository`);
    if (p.publish?.source !== 'git' && p.sourceDir === undefined) {
      problems.push(`- projects.${i}.sourceDir: required: the directory of the project's docs (or set publish.source to "git" with a repository to publish from git)`);
    }
    projectIds.add(p.id);
    domains.add(p.domain.toLowerCase());
  });
  if (config.publish.defaultProject && !projectIds.has(config.publish.defaultProject)) problems.push(`- publish.defaultProject: no project "${config.publish.defaultProject}" is declared in projects`);
  if (problems.length) throw new ConfigError(`Invalid configuration (${source}):\n${problems.join('\n')}`);
}

/** A JWT project's public key must be there and be Ed25519 at start, not at the first reader's sign-in. */
function checkReaderKeys(config: Config, cwd: string, source: string): void {
  const problems: string[] = [];
  config.projects.forEach((p, i) => {
    const jwt = p.auth?.method === 'jwt' ? p.auth.jwt : undefined;
    if (!jwt) return;
    jwt.publicKeyFile = path.resolve(cwd, jwt.publicKeyFile);
    try {
      loadJwtPublicKey(jwt.publicKeyFile);
    } catch (err) {
      problems.push(`- projects.${i}.auth.jwt.publicKeyFile: ${(err as Error).message}`);
    }
  });
  if (problems.length) throw new ConfigError(`Invalid configuration (${source}):\n${problems.join('\n')}`);
}

function deepFreeze<T>(value: T): Readonly<T> {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value as Record<string, unknown>)) deepFreeze(v);
  }
  return value;
}
