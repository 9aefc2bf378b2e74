#!/usr/bin/env node
// The CLI from the compiled build; from the TypeScript sources when no build exists (development).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const compiled = new URL('../dist/app/cli.js', import.meta.url);
let cli;
if (existsSync(fileURLToPath(compiled))) {
  cli = await import(compiled.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  cli = await import(new URL('../app/cli.ts', import.meta.url).href);
}
cli.runCli(process.argv.slice(2));
