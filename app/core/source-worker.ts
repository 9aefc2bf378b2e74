import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * A worker thread for the module `<name>.js` beside `fromModule` (dist), or its `.ts` source
 * when the appliance runs from source (tsx, vitest): then a one-line script registers the tsx
 * loader inside the thread and imports the `.ts` file, because on Node 20 `--import tsx` in a
 * worker's execArgv does not apply to the worker's own modules.
 */
export function startSourceWorker(fromModule: string, name: string, options: Omit<WorkerOptions, 'eval'> = {}): Worker {
  const here = path.dirname(fileURLToPath(fromModule));
  const js = path.join(here, `${name}.js`);
  if (fs.existsSync(js)) return new Worker(js, options);
  const tsxApi = import.meta.resolve('tsx/esm/api');
  const target = pathToFileURL(path.join(here, `${name}.ts`)).href;
  const script = `import(${JSON.stringify(tsxApi)}).then(({ register }) => { register(); return import(${JSON.stringify(target)}); });`;
  return new Worker(script, { ...options, eval: true });
}
