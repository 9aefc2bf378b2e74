import fs from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../paths.js';
import type { Command } from './io.js';

/** The package's version (package.json), as `--version` prints it. */
export function appVersion(): string {
  return (JSON.parse(fs.readFileSync(path.join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version;
}

/** Options every command takes; printed under each command's help so no usage line repeats them. */
const COMMON = `Options of every command:
  --config <file>   the configuration file (default: $DOCS_APPLIANCE_CONFIG; none: embedded defaults)
  -h, --help        this help (exit 0)
  --version         the version of docs-appliance (exit 0)`;

/**
 * A command's help, generated from its one definition (summary, usage lines, details). With a
 * subcommand (`keys create --help`) only the usage lines of that subcommand, when it has any.
 */
export function commandHelp(name: string, command: Command, sub?: string): string {
  const lines = command.usage.split('\n');
  const prefix = `docs-appliance ${name} ${sub ?? ''}`;
  const own = sub ? lines.filter((l, i) => l.startsWith(prefix) || (i > 0 && /^\s/.test(l) && lines[i - 1]!.startsWith(prefix))) : [];
  const usage = own.length > 0 ? own : lines;
  return [command.summary, '', 'Usage:', ...usage.map((l) => `  ${l}`), ...(command.details ? ['', command.details] : []), '', COMMON].join('\n');
}

/** `docs-appliance --help`: every command, one line each. */
export function globalHelp(commands: Record<string, Command>): string {
  return [
    `docs-appliance ${appVersion()}: documentation appliance (admin API, docs site, exports)`,
    '',
    'Usage: docs-appliance [<command>] [options]      (no command: serve)',
    '',
    'Commands:',
    ...Object.entries(commands).map(([n, c]) => `  ${n.padEnd(10)} ${c.summary}`),
    '',
    'docs-appliance <command> --help shows a command\'s usage; --version the version.',
  ].join('\n');
}

/** Whether argv asks for help: -h/--help anywhere before a `--` (which ends the options). */
export function wantsHelp(argv: string[]): boolean {
  for (const a of argv) {
    if (a === '--') return false;
    if (a === '--help' || a === '-h') return true;
  }
  return false;
}
