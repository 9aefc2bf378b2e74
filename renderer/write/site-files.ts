import { createHash } from 'node:crypto';

/** A file's raw-deflate stream prepared in a render worker, with the CRC-32 of its raw bytes. */
export interface Predeflated {
  data: Uint8Array;
  crc32: number;
}

/**
 * The in-memory site: bundle path → bytes, plus what workers already computed for some files
 * (sha256, deflated bytes), so the manifest and the zip do not redo it on the main thread.
 */
export class SiteFiles {
  readonly files = new Map<string, Uint8Array>();
  private readonly hashes = new Map<string, string>();
  readonly deflated = new Map<string, Predeflated>();

  add(path: string, bytes: Uint8Array, known?: { sha256?: string; deflated?: Predeflated }): void {
    if (path.startsWith('/') || path.split('/').some((s) => s === '..' || s === '.' || s === '')) {
      throw new Error(`refusing to add a bundle path that is not relative and clean: ${path}`);
    }
    if (this.files.has(path)) throw new Error(`two outputs want the same bundle path: ${path}`);
    this.files.set(path, bytes);
    if (known?.sha256) this.hashes.set(path, known.sha256);
    if (known?.deflated) this.deflated.set(path, known.deflated);
  }

  has(path: string): boolean {
    return this.files.has(path);
  }

  sha256(path: string): string {
    let h = this.hashes.get(path);
    if (h === undefined) {
      const bytes = this.files.get(path);
      if (bytes === undefined) throw new Error(`no such bundle file: ${path}`);
      h = createHash('sha256').update(bytes).digest('hex');
      this.hashes.set(path, h);
    }
    return h;
  }

  /** Paths in a fixed order (code-unit order), the order of the manifest and of the zip entries. */
  sortedPaths(): string[] {
    return [...this.files.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  }
}
