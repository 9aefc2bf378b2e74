/**
 * Pre-rendering exported components for first paint and readers without JavaScript, only inside
 * QuickJS compiled to WebAssembly (quickjs-emscripten): no `process`, `require`, `fetch` or file
 * system exists in there, each render is interrupted after RENDER_MS, the sandbox's memory is capped
 * at MEMORY_BYTES, and a worker spends at most BUDGET_MS on pre-rendering per export. Repository
 * code never runs in the appliance's own JavaScript engine.
 *
 * One sandbox per export and worker (a sandbox shared between projects would let one project's
 * code change another's pages); it is rebuilt after an interrupt or an out-of-memory error.
 */
import variant from '@jitl/quickjs-wasmfile-release-sync';
import { newQuickJSWASMModuleFromVariant, type QuickJSContext, type QuickJSRuntime, type QuickJSWASMModule } from 'quickjs-emscripten-core';
import type { CompiledModule } from './compile.js';
import { sandboxRuntimeSource } from './runtime.js';

export const RENDER_MS = 200;
export const MEMORY_BYTES = 32 * 1024 * 1024;
export const BUDGET_MS = 20_000;
const STACK_BYTES = 512 * 1024;
/** Our own runtime's first evaluation (Preact and friends), not repository code. */
const SETUP_MS = 5_000;

let wasm: QuickJSWASMModule | undefined;
let loading: Promise<void> | undefined;

/** Loads the WebAssembly module once per process (asynchronous); pre-rendering needs it. */
export function prepareSandbox(): Promise<void> {
  // Typed as the CommonJS namespace; either form (the variant or `{ default: variant }`) is accepted.
  loading ??= newQuickJSWASMModuleFromVariant(variant as unknown as Parameters<typeof newQuickJSWASMModuleFromVariant>[0]).then((m) => {
    wasm = m;
  });
  return loading;
}

export function sandboxReady(): boolean {
  return wasm !== undefined;
}

export type PrerenderResult = { ok: true; html: string } | { ok: false; reason: string; fatal?: boolean };

export class Sandbox {
  private rt: QuickJSRuntime | undefined;
  private vm: QuickJSContext | undefined;
  private readonly defined = new Set<string>();
  private deadline = 0;
  private spentMs = 0;
  /** Components that were interrupted or ran out of memory: not tried again in this export. */
  private readonly stopped = new Map<string, string>();

  get exhausted(): boolean {
    return this.spentMs >= BUDGET_MS;
  }

  render(modules: CompiledModule[], key: string, props: unknown, html: Record<string, string>): PrerenderResult {
    const earlier = this.stopped.get(key);
    if (earlier) return { ok: false, reason: earlier };
    if (this.exhausted) return { ok: false, reason: `the export's pre-render budget (${BUDGET_MS / 1000} s per worker) is spent` };
    const started = performance.now();
    try {
      const vm = this.context();
      for (const m of modules) {
        if (this.defined.has(m.bundlePath)) continue;
        this.run(vm, m.code, m.id, RENDER_MS);
        this.defined.add(m.bundlePath);
      }
      const call = `__mintIslands.renderToString(${JSON.stringify(key)}, ${JSON.stringify(JSON.stringify(props))}, ${JSON.stringify(JSON.stringify(html))})`;
      return { ok: true, html: this.run(vm, call, 'render', RENDER_MS) };
    } catch (err) {
      const failure = err instanceof SandboxFailure ? err : new SandboxFailure(err instanceof Error ? err.message : String(err), true);
      if (failure.fatal) {
        this.stopped.set(key, failure.message);
        this.reset();
      }
      return { ok: false, reason: failure.message, ...(failure.fatal ? { fatal: true } : {}) };
    } finally {
      this.spentMs += performance.now() - started;
    }
  }

  dispose(): void {
    this.reset();
  }

  private context(): QuickJSContext {
    if (this.vm) return this.vm;
    if (!wasm) throw new SandboxFailure('the sandbox is not loaded', false);
    const rt = wasm.newRuntime();
    rt.setMemoryLimit(MEMORY_BYTES);
    rt.setMaxStackSize(STACK_BYTES);
    rt.setInterruptHandler(() => performance.now() > this.deadline);
    this.rt = rt;
    const vm = rt.newContext();
    this.vm = vm;
    this.defined.clear();
    try {
      this.run(vm, sandboxRuntimeSource(), 'runtime', SETUP_MS);
    } catch (err) {
      this.reset();
      throw err;
    }
    return vm;
  }

  private run(vm: QuickJSContext, code: string, name: string, ms: number): string {
    this.deadline = performance.now() + ms;
    const result = vm.evalCode(code, name);
    if (result.error) {
      const dumped: unknown = vm.dump(result.error);
      result.error.dispose();
      const e = (dumped ?? {}) as { name?: unknown; message?: unknown };
      const message = typeof e.message === 'string' ? e.message : String(dumped);
      if (e.name === 'InternalError' && message === 'interrupted') throw new SandboxFailure(`stopped after ${ms} ms (a loop that does not end?)`, true);
      if (e.name === 'InternalError' && /out of memory|stack overflow/.test(message)) throw new SandboxFailure(`stopped: ${message} (limit ${MEMORY_BYTES / 1048576} MiB)`, true);
      throw new SandboxFailure(`${typeof e.name === 'string' ? `${e.name}: ` : ''}${message}`, false);
    }
    const value: unknown = vm.dump(result.value);
    result.value.dispose();
    return typeof value === 'string' ? value : '';
  }

  private reset(): void {
    try {
      this.vm?.dispose();
      this.rt?.dispose();
    } catch {
      // A runtime stopped mid-allocation may refuse to free cleanly; its memory stays capped.
    }
    this.vm = undefined;
    this.rt = undefined;
    this.defined.clear();
  }
}

class SandboxFailure extends Error {
  constructor(
    message: string,
    readonly fatal: boolean,
  ) {
    super(message);
  }
}

/** One sandbox per export (keyed by its render context object, which a worker keeps per export). */
const sandboxes = new Map<object, Sandbox>();
const KEPT_SANDBOXES = 2;

export function sandboxFor(owner: object): Sandbox {
  let s = sandboxes.get(owner);
  if (!s) {
    s = new Sandbox();
    if (sandboxes.size >= KEPT_SANDBOXES) {
      const [oldKey, old] = sandboxes.entries().next().value as [object, Sandbox];
      old.dispose();
      sandboxes.delete(oldKey);
    }
    sandboxes.set(owner, s);
  }
  return s;
}
