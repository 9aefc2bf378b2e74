import fs from 'node:fs';
import { Parser, type ReadEntry } from 'tar';
import { BundleError } from './errors.js';
import type { ExtractSink } from './extract-sink.js';

const FILE_TYPES = new Set(['File', 'OldFile', 'ContiguousFile']);

/**
 * Compressed data that inflates more than this many times is refused (node-tar's own check, on
 * the bytes read so far; zip entries get the same rule in extract-zip.ts). Real docs sites
 * compress 3-10 times; past 1000 only runs of identical bytes remain, i.e. a decompression bomb.
 */
export const MAX_INFLATE_RATIO = 1000;

/**
 * Stream a tarball (gzip detected by node-tar's parser) into the sink. node-tar's own extractor
 * would quietly strip absolute paths and skip `..`; a bundle carrying them is hostile, so the
 * parser is used directly and such entries, links and device files fail the whole bundle.
 * `strict` turns a truncated or corrupt archive into an error instead of a warning.
 *
 * Every way out settles the promise: on the first failure (including the sink's signal: the
 * load's deadline or stop) the sink is aborted, which ends writers waiting on an entry that the
 * aborted parser will never finish, then the error is reported once they have let go of their files.
 */
export function extractTar(file: string, sink: ExtractSink): Promise<void> {
  return new Promise((resolve, reject) => {
    let failed = false;
    const pending: Promise<void>[] = [];
    const input = fs.createReadStream(file);
    const parser = new Parser({ strict: true, file, maxDecompressionRatio: MAX_INFLATE_RATIO });
    const fail = (err: unknown) => {
      if (failed) return;
      failed = true;
      const error = asBundleError(err, sink.archive);
      sink.abort(error);
      input.destroy();
      parser.abort(error);
      // Let writers that are mid-file fail before the caller removes the temp dir.
      void Promise.allSettled(pending).then(() => reject(error));
    };
    if (sink.signal.aborted) return fail(sink.signal.reason);
    sink.signal.addEventListener('abort', () => fail(sink.signal.reason), { once: true });
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

function asBundleError(err: unknown, archive: string): BundleError {
  if (err instanceof BundleError) return err;
  const message = err instanceof Error ? err.message : String(err);
  if (/max decompression ratio exceeded/i.test(message)) {
    return new BundleError(`${archive}: the compressed data inflates more than ${MAX_INFLATE_RATIO} times its size (a decompression bomb); refused`, { code: 'INFLATE_RATIO', cause: err });
  }
  return new BundleError(`${archive}: not a readable tar archive: ${message}`, { cause: err });
}
