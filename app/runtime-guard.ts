import { createRequire } from 'node:module';

/**
 * Which Node and SQLite driver this process runs on, and whether that pair is one the appliance
 * can run on (docs/operations.md, "Supported runtimes"). The driver is a native module: some
 * pairs that load fine abort the process later, at a garbage collection, with no JavaScript
 * error to catch. Those are refused before anything opens a database.
 */

/** Exit status of a refused runtime (EX_UNAVAILABLE): distinct from a bad config (78) and a crash (70). */
export const UNSUPPORTED_RUNTIME_EXIT_CODE = 69;

/** Set to 1 to run on a pair known to abort anyway (a warning instead of the refusal). */
export const ALLOW_UNSUPPORTED_RUNTIME_ENV = 'DOCS_APPLIANCE_ALLOW_UNSUPPORTED_RUNTIME';

/** What this release supports: the image's pair, and the one these development machines have. */
export const SUPPORTED_RUNTIMES = 'Node 22 LTS with better-sqlite3 12 (the image); Node 20 with better-sqlite3 12 runs the test suite but is past its end of life';

export interface Runtime {
  /** process.versions.node, e.g. 22.23.5 */
  node: string;
  /** better-sqlite3's package version, e.g. 12.11.1 */
  driver: string;
}

interface KnownAbort {
  applies(node: number, driver: number): boolean;
  why: string;
}

/** Pairs that load and then abort. Compared by major: the guard does not guess in which minor release a change landed. */
const KNOWN_ABORTS: readonly KnownAbort[] = [
  {
    applies: (node, driver) => node >= 24 && driver < 13,
    why: 'Node 24 made node::ObjectWrap register an environment cleanup hook, and better-sqlite3 12 and older subclass it: a statement freed once Node has torn its environment down (at exit, after its database closed) aborts the process in node::RemoveEnvironmentCleanupHook, exit 134',
  },
  {
    applies: (node, driver) => node < 22 && driver >= 13,
    why: 'better-sqlite3 13 needs Node 22 or newer',
  },
];

/**
 * End of life of each Node major (the Node.js release schedule). Odd majors live six months; a
 * major newer than this table is taken as alive.
 */
const END_OF_LIFE: Readonly<Record<number, string>> = {
  18: '2025-04-30',
  19: '2023-06-01',
  20: '2026-04-30',
  21: '2024-06-01',
  22: '2027-04-30',
  23: '2025-06-01',
  24: '2028-04-30',
  25: '2026-06-01',
  26: '2029-04-30',
};
const OLDEST_IN_TABLE = 18;

export type RuntimeAssessment =
  | { kind: 'supported'; runtime: Runtime }
  | { kind: 'end-of-life'; runtime: Runtime; endOfLife: string; message: string }
  | { kind: 'aborts'; runtime: Runtime; message: string };

const major = (version: string): number => Number.parseInt(version.replace(/^v/, ''), 10);

/** The running pair. Reads the driver's package.json: the native module itself is not loaded. */
export function detectRuntime(): Runtime {
  const require = createRequire(import.meta.url);
  const { version } = require('better-sqlite3/package.json') as { version: string };
  return { node: process.versions.node, driver: version };
}

export function assessRuntime(runtime: Runtime, today: Date): RuntimeAssessment {
  const node = major(runtime.node);
  const driver = major(runtime.driver);
  const abort = KNOWN_ABORTS.find((k) => k.applies(node, driver));
  if (abort) {
    return { kind: 'aborts', runtime, message: `Node ${runtime.node} with better-sqlite3 ${runtime.driver} is a pair known to abort: ${abort.why}. Supported: ${SUPPORTED_RUNTIMES}` };
  }
  const endOfLife = node < OLDEST_IN_TABLE ? 'before 2025' : END_OF_LIFE[node];
  if (endOfLife && (node < OLDEST_IN_TABLE || Date.parse(`${endOfLife}T00:00:00Z`) <= today.getTime())) {
    return { kind: 'end-of-life', runtime, endOfLife, message: `Node ${runtime.node} reached its end of life on ${endOfLife} and gets no security fixes: run the image, or Node 22 LTS. Supported: ${SUPPORTED_RUNTIMES}` };
  }
  return { kind: 'supported', runtime };
}

export type RuntimeGate = { refuse: string } | { refuse?: undefined; warning?: string; assessment: RuntimeAssessment };

/**
 * The check every CLI command passes before it can load the driver: a pair known to abort is
 * refused (one line) unless the operator set ALLOW_UNSUPPORTED_RUNTIME_ENV, which turns it into a
 * warning. An end-of-life Node is a warning, which `serve` logs once.
 */
export function runtimeGate(env: NodeJS.ProcessEnv, runtime: Runtime = detectRuntime(), today: Date = new Date()): RuntimeGate {
  const assessment = assessRuntime(runtime, today);
  if (assessment.kind === 'aborts') {
    if (env[ALLOW_UNSUPPORTED_RUNTIME_ENV] === '1') {
      return { assessment, warning: `running anyway (${ALLOW_UNSUPPORTED_RUNTIME_ENV}=1): ${assessment.message}` };
    }
    return { refuse: `Refusing to run: ${assessment.message}. Run the image or Node 22 LTS; ${ALLOW_UNSUPPORTED_RUNTIME_ENV}=1 runs anyway.` };
  }
  if (assessment.kind === 'end-of-life') return { assessment, warning: assessment.message };
  return { assessment };
}
