/**
 * The pre-render sandbox's own thread (started by renderer/islands/sandbox.ts from a render worker):
 * QuickJS in WebAssembly, one engine per export. It answers one request at a time on the port it
 * was given and raises the shared flag after each answer, so the render worker can wait for it
 * synchronously with a hard wall-clock limit and end this thread when it does not answer in time
 * (a native operation that the QuickJS interrupt handler cannot stop).
 */
import variant from '@jitl/quickjs-wasmfile-release-sync';
import { newQuickJSWASMModuleFromVariant } from 'quickjs-emscripten-core';
import { workerData, type MessagePort } from 'node:worker_threads';
import { Engine, KEPT_ENGINES, type RenderRequest } from './sandbox-engine.js';

export type ThreadRequest = { op: 'open'; owner: number } | ({ op: 'render'; owner: number } & RenderRequest);

const { port, flag } = workerData as { port: MessagePort; flag: SharedArrayBuffer };
const signal = new Int32Array(flag);
const engines = new Map<number, Engine>();

function answer(message: unknown): void {
  port.postMessage(message);
  Atomics.store(signal, 0, 1);
  Atomics.notify(signal, 0);
}

// Typed as the CommonJS namespace; either form (the variant or `{ default: variant }`) is accepted.
const wasm = await newQuickJSWASMModuleFromVariant(variant as unknown as Parameters<typeof newQuickJSWASMModuleFromVariant>[0]);

function engineFor(owner: number): Engine {
  let engine = engines.get(owner);
  if (!engine) {
    if (engines.size >= KEPT_ENGINES) {
      const [oldest, old] = engines.entries().next().value as [number, Engine];
      old.dispose();
      engines.delete(oldest);
    }
    engine = new Engine(wasm);
    engines.set(owner, engine);
  }
  return engine;
}

port.on('message', (req: ThreadRequest) => {
  try {
    const engine = engineFor(req.owner);
    if (req.op === 'open') {
      engine.warm();
      answer({ ok: true });
    } else {
      answer(engine.render(req));
    }
  } catch (err) {
    answer({ ok: false, reason: err instanceof Error ? err.message : String(err), fatal: true });
  }
});
answer({ ready: true });
