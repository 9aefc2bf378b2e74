/**
 * The QuickJS side of pre-rendering (runs in the sandbox thread, renderer/islands/sandbox-thread.ts):
 * one QuickJS context per export, holding the runtime (Preact, preact-render-to-string, Mintlify's
 * components) and the compiled modules. Inside there is no `process`, `require`, `fetch` or file
 * system. Each evaluation is interrupted after its time limit, memory is capped at MEMORY_BYTES and
 * the stack at STACK_BYTES; an interrupted or out-of-memory context is thrown away.
 */
import type { QuickJSContext, QuickJSRuntime, QuickJSWASMModule } from 'quickjs-emscripten-core';
import type { IconTable } from './icons.js';
import { sandboxRuntimeSource } from './runtime.js';

// Generous for a busy machine: a large legitimate component (mintlify-docs' 900-line assistant playground) took
// over 200 ms to evaluate and render with seven exports sharing two cores.
export const RENDER_MS = 500;
export const MEMORY_BYTES = 32 * 1024 * 1024;
// QuickJS's own check, reached first only while the sandbox thread's V8 stack (4 MiB, sandbox.ts) is
// deeper than what 512 KiB of QuickJS frames take of it (measured: up to about 1 MiB; past that the
// host's RangeError came first).
export const STACK_BYTES = 512 * 1024;
/** Our own runtime's first evaluation (Preact and friends), not repository code. */
export const SETUP_MS = 5_000;
/** Contexts a sandbox thread keeps, for exports that alternate on one render worker. */
export const KEPT_ENGINES = 2;

export interface EngineModule {
  id: string;
  bundlePath: string;
  code: string;
}

export interface RenderRequest {
  modules: EngineModule[];
  key: string;
  props: unknown;
  html: Record<string, string>;
  icons: IconTable;
  /** The module whose `__mint_props()` gives the props that are code (code-props.ts). */
  codeProps?: string;
  /** The page language's words for Mintlify's components (words.ts). */
  words?: Record<string, string>;
}

/** `missing`: icon names the render asked for that the table lacked ([name, iconType, theme]). */
export type EngineResult =
  | { ok: true; html: string; missing: [string, string | null, boolean][] }
  | { ok: false; reason: string; fatal?: boolean };

export class SandboxFailure extends Error {
  constructor(
    message: string,
    readonly fatal: boolean,
  ) {
    super(message);
  }
}

export class Engine {
  private rt: QuickJSRuntime | undefined;
  private vm: QuickJSContext | undefined;
  private readonly defined = new Set<string>();
  private deadline = 0;

  constructor(private readonly wasm: QuickJSWASMModule) {}

  /** Creates the context and loads the runtime into it (done before the first render is timed). */
  warm(): void {
    this.context();
  }

  render(req: RenderRequest): EngineResult {
    try {
      const vm = this.context();
      for (const m of req.modules) {
        if (this.defined.has(m.bundlePath)) continue;
        this.run(vm, m.code, m.id, RENDER_MS);
        this.defined.add(m.bundlePath);
      }
      const args = [req.key, JSON.stringify(req.props), JSON.stringify(req.html), JSON.stringify(req.icons), req.codeProps ?? '', req.words ? JSON.stringify(req.words) : ''].map((a) => JSON.stringify(a)).join(', ');
      const out = JSON.parse(this.run(vm, `__mintIslands.renderToString(${args})`, 'render', RENDER_MS) || '{}') as { html?: unknown; missing?: unknown };
      return { ok: true, html: typeof out.html === 'string' ? out.html : '', missing: Array.isArray(out.missing) ? (out.missing as [string, string | null, boolean][]) : [] };
    } catch (err) {
      const failure = err instanceof SandboxFailure ? err : new SandboxFailure(err instanceof Error ? err.message : String(err), true);
      if (failure.fatal) this.dispose();
      return { ok: false, reason: failure.message, ...(failure.fatal ? { fatal: true } : {}) };
    }
  }

  dispose(): void {
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

  private context(): QuickJSContext {
    if (this.vm) return this.vm;
    const rt = this.wasm.newRuntime();
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
      this.dispose();
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
      if (e.name === 'InternalError' && /out of memory/.test(message)) throw new SandboxFailure(`stopped: out of memory (limit ${MEMORY_BYTES / 1048576} MiB)`, true);
      if (e.name === 'InternalError' && /stack overflow/.test(message)) throw new SandboxFailure(`stopped: stack overflow (stack limit ${STACK_BYTES / 1024} KiB)`, true);
      throw new SandboxFailure(`${typeof e.name === 'string' ? `${e.name}: ` : ''}${message}`, false);
    }
    const value: unknown = vm.dump(result.value);
    result.value.dispose();
    return typeof value === 'string' ? value : '';
  }
}
