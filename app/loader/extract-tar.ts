import fs from 'node:fs';
import { Parser, type ReadEntry } from 'tar';
import { BundleError } from './errors.js';
import type { ExtractSink } from './extract-sink.js';

const FILE_TYPES = new Set(['File', 'OldFile', 'ContiguousFile']);

/**
 * Stream a tarball (gzip detected by node-tar's parser) into the sink. node-tar's own extractor
 * would quietly strip absolute paths and skip `..`; a bundle carrying them is hostile, so the
 * parser is used directly and such entries, links and device files fail the whole bundle.
 * `strict` turns a truncated or corrupt archive into an error instead of a warning.
 */
export function extractTar(file: string, sink: ExtractSink): Promise<void> {
  return new Promise((resolve, reject) => {
    let failed = false;
    const pending: Promise<void>[] = [];
    const input = fs.createReadStream(file);
    const parser = new Parser({ strict: true, file });
    const fail = (err: unknown) => {
      if (failed) return;
      failed = true;
      input.destroy();
      parser.abort(err instanceof Error ? err : new Error(String(err)));
      // Let writers that are mid-file finish or fail before the caller removes the temp dir.
      void Promise.allSettled(pending).then(() =>
        reject(err instanceof BundleError ? err : new BundleError(`${sink.archive}: not a readable tar archive: ${(err as Error).message}`, { cause: err })),
      );
    };
    parser.on('entry', (entry: ReadEntry) => {
      if (failed) {
        entry.resume();
        return;
      }
      try {
        if (entry.type === 'Directory') {
          sink.directory(entry.path);
          entry.resume();
        } else if (FILE_TYPES.has(entry.type)) {
          pending.push(sink.file(entry.path, entry as AsyncIterable<Buffer>).catch(fail));
        } else {
          const what = entry.type === 'SymbolicLink' || entry.type === 'Link' ? `a ${entry.type === 'Link' ? 'hard' : 'symbolic'} link` : `of type ${entry.type}`;
          throw new BundleError(`${sink.archive}: entry "${entry.path}" is ${what}; only files and directories are allowed in a bundle`);
        }
      } catch (err) {
        entry.resume();
        fail(err);
      }
    });
    parser.on('error', fail);
    input.on('error', fail);
    parser.on('end', () => {
      void Promise.all(pending).then(
        () => {
          if (!failed) resolve();
        },
        () => undefined,
      );
    });
    input.pipe(parser as unknown as NodeJS.WritableStream);
  });
}
