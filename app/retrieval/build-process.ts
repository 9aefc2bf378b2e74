import { buildIndexFile } from './index-file.js';

/**
 * `node build-process.js <source|-> <file>`: build one bundle's index file and exit. A process of
 * its own, not the retrieval thread: what the build allocates (parsed lines, SQLite's buffers)
 * goes back to the system when it exits, instead of staying in the appliance's resident memory.
 */
const [source, file] = process.argv.slice(2);

// The appliance holds our stdin open; its end means the appliance is gone, and so is the reason
// to build. The temporary file stays private (it is never renamed into place).
process.stdin.on('end', () => process.exit(2));
process.stdin.on('error', () => process.exit(2));
process.stdin.resume();

buildIndexFile(source === '-' ? undefined : source, file!).then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`${(err as Error).message}\n`);
    process.exit(1);
  },
);
