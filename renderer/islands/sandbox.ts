/**
 * Pre-rendering exported components for first paint and readers without JavaScript, only inside
 * QuickJS compiled to WebAssembly, in a thread of its own (renderer/islands/sandbox-thread.ts) under
 * worker resourceLimits. Repository code never runs in the appliance's own JavaScript engine.
 *
 * Two limits stop a component: QuickJS's interrupt handler (RENDER_MS per evaluation, checked
 * between JavaScript operations) and memory cap, which keep the sandbox; and a hard wall-clock
 * limit (HARD_MS) on each answer, past which the render worker ends the sandbox thread
 * (`worker.terminate()` stops WebAssembly mid-operation) and starts a new one on the next island:
 * a memory bomb of long native operations (`'x'.repeat(1 << 20)` in a loop) stops in about a second.
 *
 * One QuickJS context per export and render worker (a context shared between projects would let one
 * project's code change another's pages), created on the export's first island. A worker spends at
 * most BUDGET_MS on pre-rendering per export.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import type { CompiledModule } from './compile.js';
import type { IconTable } from './icons.js';
import type { IslandWords } from './words.js';
import { KEPT_ENGINES, RENDER_MS, SETUP_MS, type EngineResult } from './sandbox-engine.js';
import type { ThreadRequest } from './sandbox-thread.js';

export { MEMORY_BYTES, RENDER_MS } from './sandbox-engine.js';
export const BUDGET_MS = 20_000;
/** Wall-clock limit on one answer of the sandbox thread; each module evaluated first adds RENDER_MS. */
export const HARD_MS = 1_500;
/** Starting the thread (loading QuickJS; from source also the TypeScript loader). */
const START_MS = 30_000;
/** The sandbox thread's own V8 heap (QuickJS's memory is capped at MEMORY_BYTES inside it). */
const THREAD_LIMITS = { maxOldGenerationSizeMb: 96, maxYoungGenerationSizeMb: 16, stackSizeMb: 4 };

export type PrerenderResult = EngineResult;

/** `sandbox-thread.js` beside this file when compiled; from source, a starter that registers tsx first. */
function threadEntry(): { filename: string; entry?: string } {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const js = path.join(here, 'sandbox-thread.js');
  if (fs.existsSync(js)) return { filename: js };
  return { filename: path.join(here, 'sandbox-thread-source.mjs'), entry: pathToFileURL(path.join(here, 'sandbox-thread.ts')).href };
}

class SandboxThread {
  private readonly worker: Worker;
  private readonly port: MessagePort;
  private readonly signal: Int32Array;
  dead = false;
  /** Exports whose QuickJS context exists in this thread, and the modules each has evaluated. */
  readonly owners = new Map<number, Set<string>>();

  constructor() {
    const { port1, port2 } = new MessageChannel();
    const flag = new SharedArrayBuffer(4);
    const entry = threadEntry();
    this.worker = new Worker(entry.filename, {
      workerData: { port: port2, flag, ...(entry.entry ? { entry: entry.entry } : {}) },
      transferList: [port2],
      resourceLimits: THREAD_LIMITS,
      // No inherited --import tsx or other flags: the thread needs none.
      execArgv: [],
      stdout: false,
      stderr: false,
    });
    // The render worker must not stay alive for it, and its errors are read as missing answers.
    this.worker.unref();
    this.worker.on('error', () => {
      this.dead = true;
    });
    this.port = port1;
    this.port.unref();
    this.signal = new Int32Array(flag);
    if (this.wait(START_MS) === undefined) {
      this.kill();
      throw new Error('the sandbox did not start');
    }
  }

  /** One request, answered within `ms` or the thread is ended (undefined). */
  ask(req: ThreadRequest, ms: number): EngineResult | undefined {
    if (this.dead) return undefined;
    Atomics.store(this.signal, 0, 0);
    this.port.postMessage(req);
    const answer = this.wait(ms) as EngineResult | undefined;
    if (answer === undefined) this.kill();
    return answer;
  }

  private wait(ms: number): unknown {
    const until = performance.now() + ms;
    for (;;) {
      const got = receiveMessageOnPort(this.port);
      if (got) return got.message;
      const left = until - performance.now();
      if (left <= 0 || this.dead) return undefined;
      Atomics.wait(this.signal, 0, 0, left);
      Atomics.store(this.signal, 0, 0);
    }
  }

  kill(): void {
    this.dead = true;
    this.port.close();
    void this.worker.terminate();
  }
}

let thread: SandboxThread | undefined;
let nextOwner = 1;

function liveThread(): SandboxThread {
  if (!thread || thread.dead) thread = new SandboxThread();
  return thread;
}

/** Kept for the render worker's start-up: the thread itself starts on the first island. */
export function prepareSandbox(): Promise<void> {
  return Promise.resolve();
}

export function sandboxReady(): boolean {
  return true;
}

export class Sandbox {
  private readonly id = nextOwner++;
  private spentMs = 0;
  /** Components that were stopped by a limit: not tried again in this export. */
  private readonly stopped = new Map<string, string>();

  get exhausted(): boolean {
    return this.spentMs >= BUDGET_MS;
  }

  /** `words`: the page language's words for Mintlify's components (words.ts); English without. */
  render(modules: CompiledModule[], key: string, props: unknown, html: Record<string, string>, icons: IconTable = {}, codeProps?: string, words?: IslandWords): PrerenderResult {
    const earlier = this.stopped.get(key);
    if (earlier) return { ok: false, reason: earlier };
    if (this.exhausted) return { ok: false, reason: `the export's pre-render budget (${BUDGET_MS / 1000} s per worker) is spent` };
    const started = performance.now();
    try {
      let t: SandboxThread;
      try {
        t = liveThread();
      } catch (err) {
        return { ok: false, reason: err instanceof Error ? err.message : String(err) };
      }
      let defined = t.owners.get(this.id);
      if (!defined) {
        const opened = t.ask({ op: 'open', owner: this.id }, SETUP_MS + HARD_MS);
        if (!opened?.ok) return { ok: false, reason: opened ? opened.reason : 'the sandbox did not start' };
        defined = new Set();
        // The thread keeps as many contexts and drops the oldest the same way (sandbox-thread.ts).
        if (t.owners.size >= KEPT_ENGINES) t.owners.delete(t.owners.keys().next().value as number);
        t.owners.set(this.id, defined);
      }
      const fresh = modules.filter((m) => !defined.has(m.bundlePath)).map((m) => ({ id: m.id, bundlePath: m.bundlePath, code: m.code }));
      const limit = HARD_MS + RENDER_MS * fresh.length;
      const result = t.ask({ op: 'render', owner: this.id, modules: fresh, key, props, html, icons, ...(codeProps ? { codeProps } : {}), ...(words ? { words } : {}) }, limit);
      if (!result) {
        const reason = `stopped: no answer within ${limit} ms (a long native operation or a memory bomb?); the sandbox thread was ended`;
        this.stopped.set(key, reason);
        return { ok: false, reason, fatal: true };
      }
      if (result.ok) for (const m of fresh) defined.add(m.bundlePath);
      else if (result.fatal) {
        // The thread threw the context away: the next render builds it again.
        t.owners.delete(this.id);
        this.stopped.set(key, result.reason);
      }
      return result;
    } finally {
      this.spentMs += performance.now() - started;
    }
  }
}

/** One sandbox per export (keyed by its render context object, which a worker keeps per export). */
const sandboxes = new WeakMap<object, Sandbox>();

export function sandboxFor(owner: object): Sandbox {
  let s = sandboxes.get(owner);
  if (!s) {
    s = new Sandbox();
    sandboxes.set(owner, s);
  }
  return s;
}
