import { cliCommand } from '../helpers/cli-entry.js';
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { packageRoot } from '../../app/paths.js';

/** Start `docs-appliance serve` as a real process; resolve with the site port from its log. */
export function startServe(configFile: string): Promise<{ proc: ChildProcess; sitePort: number; lines: string[] }> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [...cliCommand(), 'serve', '--config', configFile], {
      cwd: packageRoot(),
      env: { ...process.env, DOCS_APPLIANCE_CONFIG: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const lines: string[] = [];
    let buffer = '';
    const timer = setTimeout(() => reject(new Error(`serve did not start:\n${lines.join('\n')}`)), 20_000);
    proc.stdout!.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      let nl: number;
      while ((nl = buffer.indexOf('\n')) !== -1) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        lines.push(line);
        try {
          const entry = JSON.parse(line) as { msg?: string; sitePort?: number };
          if (entry.msg === 'listening' && entry.sitePort) {
            clearTimeout(timer);
            resolve({ proc, sitePort: entry.sitePort, lines });
          }
        } catch {
          // not a log line
        }
      }
    });
    proc.stderr!.on('data', (chunk: Buffer) => lines.push(chunk.toString()));
    proc.on('exit', (code) => reject(new Error(`serve exited with ${code}:\n${lines.join('\n')}`)));
  });
}

