#!/usr/bin/env node
// The CLI from the compiled build; from the TypeScript sources when no build exists (development).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const compiled = new URL('../dist/app/cli.js', import.meta.url);
if (existsSync(fileURLToPath(compiled))) {
  await import(compiled.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(new URL('../app/cli.ts', import.meta.url).href);
}
