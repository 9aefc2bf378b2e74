import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../app/paths.js';

const root = packageRoot();

/** A tree shaped like the package (the scripts, their sources, tsconfigs, typescript) with one tiny source file and a tiny editor client. */
function tinyTree(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'build-fresh-'));
  fs.mkdirSync(path.join(dir, 'scripts'));
  fs.copyFileSync(path.join(root, 'scripts/build.mjs'), path.join(dir, 'scripts/build.mjs'));
  fs.copyFileSync(path.join(root, 'scripts/build-editor.mjs'), path.join(dir, 'scripts/build-editor.mjs'));
  fs.symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'));
  for (const d of ['app', 'config', 'data', 'renderer']) fs.mkdirSync(path.join(dir, d));
  fs.writeFileSync(path.join(dir, 'app/cli.ts'), 'export const answer: number = 42;\n');
  fs.mkdirSync(path.join(dir, 'app/editor/client'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'app/editor/client/main.ts'), "import './editor.css';\ndocument.title = 'editor-42';\n");
  fs.writeFileSync(path.join(dir, 'app/editor/client/editor.css'), 'body { margin: 0 }\n');
  fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', outDir: 'dist', rootDir: '.', skipLibCheck: true, types: [] } }));
  fs.writeFileSync(path.join(dir, 'tsconfig.build.json'), JSON.stringify({ extends: './tsconfig.json', include: ['app', 'config', 'data', 'renderer'] }));
  fs.writeFileSync(path.join(dir, 'package.json'), '{"type":"module"}\n');
  return dir;
}

const build = (dir: string) => spawnSync(process.execPath, [path.join(dir, 'scripts/build.mjs'), '--if-stale'], { cwd: dir, encoding: 'utf8' });

describe('npm start builds only when sources changed (scripts/build.mjs --if-stale)', () => {
  it('package.json has no prestart rebuild: start runs the freshness check, prepare builds at install', () => {
    const { scripts } = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(scripts['prestart']).toBeUndefined();
    expect(scripts['start']).toBe('node scripts/build.mjs --if-stale && exec node dist/app/cli.js serve');
    expect(scripts['prepare']).toBe('node scripts/build.mjs');
  });

  it('builds a tree with no build, skips an unchanged one in well under a second, rebuilds after an edit', { timeout: 60_000 }, () => {
    const dir = tinyTree();
    const first = build(dir);
    expect(first.status).toBe(0);
    expect(first.stderr).toContain('building the TypeScript (no build yet)');
    expect(first.stderr).toContain('bundling the editor (no editor bundle yet)');
    expect(fs.readFileSync(path.join(dir, 'dist/app/cli.js'), 'utf8')).toContain('42');
    expect(fs.readFileSync(path.join(dir, 'dist/editor/editor.js'), 'utf8')).toContain('editor-42');
    expect(fs.existsSync(path.join(dir, 'dist/editor/editor.css'))).toBe(true);

    const started = Date.now();
    const second = build(dir);
    expect(second.status).toBe(0);
    expect(second.stderr).toBe('');
    expect(Date.now() - started).toBeLessThan(2_000);

    const later = new Date(Date.now() + 5_000);
    fs.writeFileSync(path.join(dir, 'app/cli.ts'), 'export const answer: number = 43;\n');
    fs.utimesSync(path.join(dir, 'app/cli.ts'), later, later);
    const third = build(dir);
    expect(third.status).toBe(0);
    expect(third.stderr).toContain('app/cli.ts changed since the last build');
    expect(third.stderr).not.toContain('bundling the editor');
    expect(fs.readFileSync(path.join(dir, 'dist/app/cli.js'), 'utf8')).toContain('43');

    // A change of the editor's client rebuilds its bundle (and, being TypeScript under app/, the tsc output).
    const later2 = new Date(Date.now() + 10_000);
    fs.writeFileSync(path.join(dir, 'app/editor/client/main.ts'), "import './editor.css';\ndocument.title = 'editor-43';\n");
    fs.utimesSync(path.join(dir, 'app/editor/client/main.ts'), later2, later2);
    const fourth = build(dir);
    expect(fourth.status).toBe(0);
    expect(fourth.stderr).toContain('bundling the editor (app/editor/client changed since the last bundle)');
    expect(fs.readFileSync(path.join(dir, 'dist/editor/editor.js'), 'utf8')).toContain('editor-43');
  });

  it('a failed build exits non-zero and leaves no stamp, so the next start tries again', { timeout: 60_000 }, () => {
    const dir = tinyTree();
    fs.writeFileSync(path.join(dir, 'app/cli.ts'), 'export const answer: number = "not a number";\n');
    expect(build(dir).status).not.toBe(0);
    expect(fs.existsSync(path.join(dir, 'dist/.build-stamp'))).toBe(false);
    expect(build(dir).stderr).toContain('no build yet');
  });
});
