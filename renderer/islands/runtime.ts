/**
 * The component runtime as files: Preact (10.x, the React-compatible line with hooks and compat),
 * Mintlify's components and the island runtime, concatenated into one content-hashed script for
 * the site, and the same plus preact-render-to-string as the sandbox's source. Read once per process.
 */
import fs from 'node:fs';
import path from 'node:path';
import { contentHash } from '../theme/assets.js';
import { packageRoot } from '../theme/package-root.js';

export interface RuntimeScript {
  bundlePath: string;
  bytes: Uint8Array;
}

let browser: RuntimeScript | undefined;
let sandboxSource: string | undefined;

function read(rel: string): string {
  return fs.readFileSync(path.join(packageRoot(), rel), 'utf8').replace(/\n\/\/# sourceMappingURL=\S+\s*$/, '\n');
}

function preactFiles(): string[] {
  return [read('node_modules/preact/dist/preact.min.umd.js'), read('node_modules/preact/hooks/dist/hooks.umd.js'), read('node_modules/preact/compat/dist/compat.umd.js')];
}

function ownFiles(): string[] {
  return [read('renderer/islands/client/mintlify.js'), read('renderer/islands/client/runtime.js')];
}

/** `_static/islands/runtime.<hash>.js`: loaded by pages with running components, before their modules. */
export function browserRuntime(): RuntimeScript {
  if (!browser) {
    const bytes = new Uint8Array(Buffer.from([...preactFiles(), ...ownFiles()].join('\n;\n'), 'utf8'));
    browser = { bundlePath: `_static/islands/runtime.${contentHash(bytes)}.js`, bytes };
  }
  return browser;
}

/** The same runtime for the pre-render sandbox, with Preact's string renderer. */
export function sandboxRuntimeSource(): string {
  // The UMD builds look for `self` when `this` is not an object.
  sandboxSource ??= ['var self = globalThis;', SERVER_TIMERS, ...preactFiles(), read('node_modules/preact-render-to-string/dist/index.umd.js'), ...ownFiles()].join('\n;\n');
  return sandboxSource;
}

/**
 * A server render (Mintlify's, in Node) has timers, so a component may schedule work in its body
 * (`setTimeout(() => loadTerminal(), 1)`) and still render there. Their callbacks would run after
 * the HTML is written, so here they are accepted and never run; the browser runs them.
 */
const SERVER_TIMERS = [
  'var __mintTimers = 0;',
  "if (typeof setTimeout !== 'function') { globalThis.setTimeout = globalThis.setInterval = function () { return ++__mintTimers; }; globalThis.clearTimeout = globalThis.clearInterval = function () {}; }",
  "if (typeof queueMicrotask !== 'function') globalThis.queueMicrotask = function () {};",
].join('\n');
