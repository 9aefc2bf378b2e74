import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createWorkspaceTools, TOOL_LIMITS, ToolError, type WorkspaceTools } from '../../app/agent/workspace-tools.js';

let base: string;
let root: string;
let outside: string;
let tools: WorkspaceTools;

beforeEach(() => {
  base = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-tools-'));
  root = path.join(base, 'repo');
  outside = path.join(base, 'outside');
  fs.mkdirSync(path.join(root, 'guides'), { recursive: true });
  fs.mkdirSync(path.join(root, '.git', 'hooks'), { recursive: true });
  fs.mkdirSync(outside);
  fs.writeFileSync(path.join(root, 'index.mdx'), '# Home\nWelcome\n');
  fs.writeFileSync(path.join(root, 'guides', 'install.mdx'), '## Install\nRun the Installer.\n');
  fs.writeFileSync(path.join(root, '.git', 'config'), '[core]\n');
  fs.writeFileSync(path.join(outside, 'secret.txt'), 'top secret\n');
  fs.symlinkSync(outside, path.join(root, 'escape-dir'));
  fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(root, 'escape-file.md'));
  fs.symlinkSync('guides/install.mdx', path.join(root, 'alias.mdx'));
  tools = createWorkspaceTools(root);
});
afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

const refused = (name: string, args: Record<string, unknown>, message: string | RegExp) => {
  expect(() => tools.run(name, args)).toThrow(ToolError);
  expect(() => tools.run(name, args)).toThrow(message);
};

describe('workspace tools', () => {
  it('list, read, search, write and delete inside the repository', () => {
    expect(tools.run('list_files', {}).split('\n')).toEqual(['alias.mdx (symbolic link)', 'escape-dir (symbolic link)', 'escape-file.md (symbolic link)', 'guides/', 'guides/install.mdx', 'index.mdx']);
    expect(tools.run('list_files', { path: 'guides', recursive: false })).toBe('guides/install.mdx');
    expect(tools.run('read_file', { path: 'guides/install.mdx' })).toBe('## Install\nRun the Installer.\n');
    expect(tools.run('read_file', { path: './guides//install.mdx' })).toContain('Install');
    // A link that stays inside the repository may be read.
    expect(tools.run('read_file', { path: 'alias.mdx' })).toContain('Installer');
    expect(tools.run('search_files', { query: 'installer' })).toBe('guides/install.mdx:2: Run the Installer.');
    expect(tools.run('search_files', { query: 'nowhere' })).toBe('no matches');
    expect(tools.run('write_file', { path: 'guides/new/page.mdx', content: 'hello' })).toBe('wrote guides/new/page.mdx (5 bytes)');
    expect(fs.readFileSync(path.join(root, 'guides', 'new', 'page.mdx'), 'utf8')).toBe('hello');
    expect(tools.run('delete_file', { path: 'index.mdx' })).toBe('deleted index.mdx');
    expect(fs.existsSync(path.join(root, 'index.mdx'))).toBe(false);
  });

  it('refuses paths that leave the repository or enter .git', () => {
    refused('read_file', { path: '../outside/secret.txt' }, 'leaves the repository');
    refused('read_file', { path: 'guides/../../outside/secret.txt' }, 'leaves the repository');
    refused('read_file', { path: path.join(outside, 'secret.txt') }, 'not a path relative to the repository root');
    refused('read_file', { path: '~/secret.txt' }, 'not a path relative');
    refused('read_file', { path: 'C:\\Windows\\win.ini' }, 'not a path relative');
    refused('read_file', { path: 'index.mdx\0.png' }, 'NUL');
    refused('read_file', { path: '.git/config' }, '.git');
    refused('write_file', { path: '.git/hooks/pre-commit', content: 'x' }, '.git');
    refused('write_file', { path: 'guides/.GIT/config', content: 'x' }, '.git');
    refused('list_files', { path: '..' }, 'leaves the repository');
    refused('search_files', { query: 'secret', path: '../outside' }, 'leaves the repository');
  });

  it('does not follow symbolic links out of the repository, and never writes through one', () => {
    refused('read_file', { path: 'escape-file.md' }, 'symbolic link that leaves the repository');
    refused('read_file', { path: 'escape-dir/secret.txt' }, 'symbolic link that leaves the repository');
    refused('list_files', { path: 'escape-dir' }, 'symbolic link that leaves the repository');
    refused('write_file', { path: 'escape-dir/new.txt', content: 'x' }, 'writes never follow links');
    refused('write_file', { path: 'escape-file.md', content: 'overwritten' }, 'writes never follow links');
    refused('write_file', { path: 'alias.mdx', content: 'x' }, 'writes never follow links');
    refused('delete_file', { path: 'escape-file.md' }, 'writes never follow links');
    // Search walks without following links: the secret outside is never found.
    expect(tools.run('search_files', { query: 'top secret' })).toBe('no matches');
    expect(fs.readFileSync(path.join(outside, 'secret.txt'), 'utf8')).toBe('top secret\n');
    expect(fs.readdirSync(outside)).toEqual(['secret.txt']);
  });

  it('enforces size caps and reports model mistakes clearly', () => {
    fs.writeFileSync(path.join(root, 'big.md'), 'x'.repeat(TOOL_LIMITS.readBytes + 1));
    refused('read_file', { path: 'big.md' }, `read_file returns at most ${TOOL_LIMITS.readBytes}`);
    refused('write_file', { path: 'huge.md', content: 'y'.repeat(TOOL_LIMITS.writeBytes + 1) }, `write_file takes at most ${TOOL_LIMITS.writeBytes}`);
    expect(fs.existsSync(path.join(root, 'huge.md'))).toBe(false);
    fs.writeFileSync(path.join(root, 'image.png'), Buffer.from([0x89, 0x50, 0x00, 0x01]));
    refused('read_file', { path: 'image.png' }, 'binary');
    refused('read_file', { path: 'missing.md' }, 'does not exist');
    refused('read_file', { path: 'guides' }, 'not a file');
    refused('read_file', {}, '"path" must be a string');
    refused('write_file', { path: 'a.md', content: 42 }, '"content" must be a string');
    refused('write_file', { path: 'guides', content: 'x' }, 'is a folder');
    refused('delete_file', { path: 'guides' }, 'not a file');
    refused('search_files', { query: '' }, 'must not be empty');
    refused('rm_rf', {}, 'unknown tool');
  });

  it('answers an over-long path with an error for the model, never by ending the run', () => {
    refused('write_file', { path: `${'d/'.repeat(600)}a.md`, content: 'x' }, `a tool takes paths of at most ${TOOL_LIMITS.pathBytes}`);
    // A 300-byte name is under the path bound but over the file system's (ENAMETOOLONG).
    refused('write_file', { path: `${'n'.repeat(300)}.md`, content: 'x' }, 'write_file failed: ENAMETOOLONG');
    refused('read_file', { path: `${'n'.repeat(300)}.md` }, 'does not exist');
    expect(fs.readdirSync(root).sort()).toEqual(['.git', 'alias.mdx', 'escape-dir', 'escape-file.md', 'guides', 'index.mdx']);
  });
});
