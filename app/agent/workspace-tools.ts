import fs from 'node:fs';
import path from 'node:path';
import type { LimitKey } from './limits.js';
import type { ToolSpec } from './model-client.js';

/** Limits of the file tools; a model cannot read or write past them. */
export const TOOL_LIMITS = {
  readBytes: 256 * 1024,
  writeBytes: 1024 * 1024,
  listEntries: 2000,
  searchMatches: 200,
  /** Files larger than this are skipped by search. */
  searchFileBytes: 1024 * 1024,
  /** Longest path a tool takes (bytes); it ends up in commit messages, pull requests and logs. */
  pathBytes: 1024,
};

/** A tool call the model got wrong (bad path, missing file, too big): reported back to the model. */
export class ToolError extends Error {
  override name = 'ToolError';
  /** Set when a job limit (not a mistake in the call) refused it. */
  limit?: LimitKey;
}

const limitError = (limit: LimitKey, message: string) => Object.assign(new ToolError(message), { limit });

export interface WorkspaceToolOptions {
  /** Largest file read_file returns; a larger one is refused, never cut (a cut file written back would lose its end). */
  readBytes?: number;
  /** Files the job's branch may differ in from its base (agent.maxFilesChanged). */
  maxFilesChanged?: number;
  /** Bytes of those files together (agent.maxChangedBytes). */
  maxChangedBytes?: number;
  /** Files earlier turns already changed on the branch, with their current size (0 = deleted). */
  alreadyChanged?: ReadonlyMap<string, number>;
}

export const WORKSPACE_TOOL_SPECS: ToolSpec[] = [
  {
    type: 'function',
    function: {
      name: 'list_files',
      description: 'List files and folders of the repository (paths relative to its root). Recursive by default.',
      parameters: {
        type: 'object',
        properties: { path: { type: 'string', description: 'Folder relative to the repository root; default "."' }, recursive: { type: 'boolean' } },
        additionalProperties: false,
      },
    },
  },
  {
    type: 'function',
    function: {
      name: 'read_file',
      description: `Read a UTF-8 text file of the repository (at most ${TOOL_LIMITS.readBytes} bytes).`,
      parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'], additionalProperties: false },
    },
  },
  {
    type: 'function',
    function: {
      name: 'search_files',
      description: 'Find lines containing a text (case-insensitive, literal) in the repository; answers "path:line: text" lines.',
      parameters: {
        type: 'object',
        properties: { query: { type: 'string' }, path: { type: 'string', description: 'Folder to search in; default "."' } },
        required: ['query'],
        additionalProperties: false,
      },
    },
  },
  {
    type: 'function',
    function: {
      name: 'write_file',
      description: `Create or replace a UTF-8 text file of the repository with the full new content (at most ${TOOL_LIMITS.writeBytes} bytes). Folders are created as needed.`,
      parameters: { type: 'object', properties: { path: { type: 'string' }, content: { type: 'string' } }, required: ['path', 'content'], additionalProperties: false },
    },
  },
  {
    type: 'function',
    function: {
      name: 'delete_file',
      description: 'Delete one file of the repository.',
      parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'], additionalProperties: false },
    },
  },
];

const str = (args: Record<string, unknown>, name: string, optional = false): string | undefined => {
  const v = args[name];
  if (v === undefined && optional) return undefined;
  if (typeof v !== 'string') throw new ToolError(`"${name}" must be a string`);
  return v;
};

/**
 * File tools confined to one working copy. A path must be relative, without `..`, outside
 * `.git` (its hooks and config would run code on the next git command), and every existing
 * component is checked with lstat: a symlink that resolves outside the root is refused, and
 * writes never go through a symlink at all (O_NOFOLLOW on the file, lstat on the folders).
 */
export function createWorkspaceTools(rootDir: string, options: WorkspaceToolOptions = {}) {
  const root = fs.realpathSync(rootDir);
  const readBytes = Math.min(options.readBytes ?? TOOL_LIMITS.readBytes, TOOL_LIMITS.readBytes);
  const maxFiles = options.maxFilesChanged ?? Infinity;
  const maxBytes = options.maxChangedBytes ?? 32 * 1024 * 1024;
  // Path → bytes it holds now, for every file the branch changes (earlier turns and this one).
  const changed = new Map<string, number>(options.alreadyChanged ?? []);
  let changedBytes = [...changed.values()].reduce((a, b) => a + b, 0);

  /** Would changing `rel` to `bytes` bytes stay within the job's bounds? Throws if not. */
  function checkChange(rel: string, bytes: number): void {
    if (!changed.has(rel) && changed.size >= maxFiles) {
      throw limitError('maxFilesChanged', `this job already changes ${changed.size} files; at most ${maxFiles} per job (agent.maxFilesChanged). Finish with what you have, or change a file you already changed.`);
    }
    const next = changedBytes - (changed.get(rel) ?? 0) + bytes;
    if (next > maxBytes) {
      throw limitError('maxChangedBytes', `the files this job changes would hold ${next} bytes; at most ${maxBytes} per job (agent.maxChangedBytes)`);
    }
  }
  function recordChange(rel: string, bytes: number): void {
    changedBytes += bytes - (changed.get(rel) ?? 0);
    changed.set(rel, bytes);
  }

  const inside = (abs: string) => abs === root || abs.startsWith(root + path.sep);

  /** Validate a model-supplied path and map it into the root. */
  function resolve(rel: string, opts: { forWrite?: boolean } = {}): { abs: string; rel: string } {
    if (rel.includes('\0')) throw new ToolError('path contains a NUL byte');
    if (Buffer.byteLength(rel, 'utf8') > TOOL_LIMITS.pathBytes) throw new ToolError(`the path is ${Buffer.byteLength(rel, 'utf8')} bytes; a tool takes paths of at most ${TOOL_LIMITS.pathBytes}`);
    const trimmed = rel.trim();
    if (trimmed === '' || trimmed === '.' || trimmed === './') return { abs: root, rel: '.' };
    if (path.isAbsolute(trimmed) || /^[a-zA-Z]:/.test(trimmed) || trimmed.startsWith('\\') || trimmed.startsWith('~')) {
      throw new ToolError(`"${rel}" is not a path relative to the repository root`);
    }
    const parts = trimmed.split(/[\\/]+/).filter((p) => p !== '' && p !== '.');
    if (parts.some((p) => p === '..')) throw new ToolError(`"${rel}" leaves the repository ("..")`);
    if (parts.some((p) => p.toLowerCase() === '.git')) throw new ToolError(`"${rel}" is inside .git, which the tools do not touch`);
    let cur = root;
    for (let i = 0; i < parts.length; i++) {
      cur = path.join(cur, parts[i]!);
      let st: fs.Stats;
      try {
        st = fs.lstatSync(cur);
      } catch {
        break; // the rest does not exist yet (a new file or folder)
      }
      if (st.isSymbolicLink()) {
        if (opts.forWrite) throw new ToolError(`"${rel}" goes through a symbolic link; writes never follow links`);
        let target: string;
        try {
          target = fs.realpathSync(cur);
        } catch {
          throw new ToolError(`"${rel}" goes through a broken symbolic link`);
        }
        if (!inside(target)) throw new ToolError(`"${rel}" goes through a symbolic link that leaves the repository`);
      }
    }
    const abs = path.join(root, ...parts);
    if (!inside(abs)) throw new ToolError(`"${rel}" leaves the repository`);
    return { abs, rel: parts.join('/') };
  }

  const relOf = (abs: string) => path.relative(root, abs).split(path.sep).join('/');

  /** Walk a folder without following links, skipping .git. */
  function* walk(dir: string, recursive: boolean): Generator<{ abs: string; kind: 'file' | 'dir' | 'link' }> {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    entries.sort((a, b) => a.name.localeCompare(b.name));
    for (const e of entries) {
      if (e.name === '.git') continue;
      const abs = path.join(dir, e.name);
      if (e.isSymbolicLink()) yield { abs, kind: 'link' };
      else if (e.isDirectory()) {
        yield { abs, kind: 'dir' };
        if (recursive) yield* walk(abs, recursive);
      } else if (e.isFile()) yield { abs, kind: 'file' };
    }
  }

  function readText(abs: string, rel: string): string {
    let st: fs.Stats;
    try {
      st = fs.statSync(abs);
    } catch {
      throw new ToolError(`"${rel}" does not exist`);
    }
    if (!st.isFile()) throw new ToolError(`"${rel}" is not a file`);
    if (st.size > readBytes) throw new ToolError(`"${rel}" is ${st.size} bytes; read_file returns at most ${readBytes}`);
    const buf = fs.readFileSync(abs);
    if (buf.includes(0)) throw new ToolError(`"${rel}" is a binary file`);
    return buf.toString('utf8');
  }

  const tools: Record<string, (args: Record<string, unknown>) => string> = {
    list_files(args) {
      const { abs, rel } = resolve(str(args, 'path', true) ?? '.');
      const recursive = args.recursive === undefined ? true : args.recursive === true;
      if (!fs.existsSync(abs) || !fs.statSync(abs).isDirectory()) throw new ToolError(`"${rel}" is not a folder`);
      const lines: string[] = [];
      for (const e of walk(abs, recursive)) {
        if (lines.length >= TOOL_LIMITS.listEntries) {
          lines.push(`… (stopped at ${TOOL_LIMITS.listEntries} entries; list a subfolder)`);
          break;
        }
        lines.push(e.kind === 'dir' ? `${relOf(e.abs)}/` : e.kind === 'link' ? `${relOf(e.abs)} (symbolic link)` : relOf(e.abs));
      }
      return lines.length ? lines.join('\n') : '(empty folder)';
    },
    read_file(args) {
      const { abs, rel } = resolve(str(args, 'path')!);
      return readText(abs, rel);
    },
    search_files(args) {
      const query = str(args, 'query')!;
      if (query.length === 0) throw new ToolError('"query" must not be empty');
      const { abs, rel } = resolve(str(args, 'path', true) ?? '.');
      if (!fs.existsSync(abs) || !fs.statSync(abs).isDirectory()) throw new ToolError(`"${rel}" is not a folder`);
      const needle = query.toLowerCase();
      const out: string[] = [];
      for (const e of walk(abs, true)) {
        if (e.kind !== 'file') continue;
        const st = fs.statSync(e.abs);
        if (st.size > TOOL_LIMITS.searchFileBytes) continue;
        const buf = fs.readFileSync(e.abs);
        if (buf.includes(0)) continue;
        const lines = buf.toString('utf8').split('\n');
        for (let i = 0; i < lines.length; i++) {
          if (!lines[i]!.toLowerCase().includes(needle)) continue;
          out.push(`${relOf(e.abs)}:${i + 1}: ${lines[i]!.slice(0, 300)}`);
          if (out.length >= TOOL_LIMITS.searchMatches) return out.join('\n') + `\n… (stopped at ${TOOL_LIMITS.searchMatches} matches)`;
        }
      }
      return out.length ? out.join('\n') : 'no matches';
    },
    write_file(args) {
      const { abs, rel } = resolve(str(args, 'path')!, { forWrite: true });
      const content = str(args, 'content')!;
      if (rel === '.') throw new ToolError('write_file needs a file path');
      const bytes = Buffer.byteLength(content, 'utf8');
      if (bytes > TOOL_LIMITS.writeBytes) throw new ToolError(`content is ${bytes} bytes; write_file takes at most ${TOOL_LIMITS.writeBytes}`);
      checkChange(rel, bytes);
      fs.mkdirSync(path.dirname(abs), { recursive: true });
      // The folders were checked by resolve(); re-check after mkdir in case of a race with a link.
      if (!inside(fs.realpathSync(path.dirname(abs)))) throw new ToolError(`"${rel}" leaves the repository`);
      if (fs.existsSync(abs) && fs.lstatSync(abs).isDirectory()) throw new ToolError(`"${rel}" is a folder`);
      const fd = fs.openSync(abs, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_TRUNC | fs.constants.O_NOFOLLOW, 0o644);
      try {
        fs.writeSync(fd, content);
      } finally {
        fs.closeSync(fd);
      }
      recordChange(rel, bytes);
      return `wrote ${rel} (${bytes} bytes)`;
    },
    delete_file(args) {
      const { abs, rel } = resolve(str(args, 'path')!, { forWrite: true });
      let st: fs.Stats;
      try {
        st = fs.lstatSync(abs);
      } catch {
        throw new ToolError(`"${rel}" does not exist`);
      }
      if (!st.isFile()) throw new ToolError(`"${rel}" is not a file`);
      checkChange(rel, 0);
      fs.unlinkSync(abs);
      recordChange(rel, 0);
      return `deleted ${rel}`;
    },
  };

  return {
    root,
    /** Files the branch changes so far (earlier turns and this run), as the tools counted them. */
    changedCount: () => changed.size,
    has: (name: string) => Object.hasOwn(tools, name),
    /** Run a tool; a ToolError is the model's mistake (reported to it), anything else is ours. */
    run(name: string, args: Record<string, unknown>): string {
      const tool = tools[name];
      if (!tool) throw new ToolError(`unknown tool "${name}"`);
      try {
        return tool(args);
      } catch (err) {
        if (err instanceof ToolError) throw err;
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'ELOOP') throw new ToolError('the path is a symbolic link; writes never follow links');
        // The model's mistake or the disk's state, never a reason to end the run: the model is told.
        if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR' || code === 'EACCES' || code === 'ENAMETOOLONG' || code === 'EEXIST' || code === 'EINVAL' || code === 'ENOSPC' || code === 'EFBIG') {
          throw new ToolError(`${name} failed: ${code}`);
        }
        throw err;
      }
    },
  };
}

export type WorkspaceTools = ReturnType<typeof createWorkspaceTools>;
