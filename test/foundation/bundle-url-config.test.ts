import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

/** A config file whose only problem is staticExport.bundleUrl. */
function configWith(bundleUrl: string): { dir: string; file: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bundle-url-config-'));
  const file = path.join(dir, 'config.json');
  fs.writeFileSync(file, JSON.stringify({ stateDir: path.join(dir, 'var'), staticExport: { enabled: true, bundleUrl } }));
  return { dir, file };
}

describe('an unusable staticExport.bundleUrl stops start-up (finding 15)', () => {
  for (const [url, problem] of [
    ['ftp://files.example/bundle.zip', 'has the unsupported scheme "ftp://" (use https://, http://, file:// or a path)'],
    ['s3://bucket/bundle.zip?X-Amz-Signature=secret', 'has the unsupported scheme "s3://" (use https://, http://, file:// or a path)'],
    ['file://otherhost/srv/bundle.zip', 'is not a usable file:// URL: File URL host must be "localhost" or empty on linux'],
    ['https://', 'is not a valid https:// URL'],
  ] as const) {
    it(`${url.split('?')[0]}: serve exits at once, naming the key, without repeating the URL`, async () => {
      const { dir, file } = configWith(url);
      try {
        const started = Date.now();
        const res = await runCli(['serve', '--config', file], { cwd: dir });
        expect(Date.now() - started).toBeLessThan(5000);
        expect(res.code).not.toBe(0);
        expect(res.err).toContain(`staticExport.bundleUrl: ${problem}`);
        expect(res.err).not.toContain('secret');
        // Nothing was started: no state directory, no database.
        expect(fs.existsSync(path.join(dir, 'var'))).toBe(false);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });
  }

  it('http(s)://, file:// and plain paths are accepted at load (whether they exist is the loader\'s business)', async () => {
    for (const url of ['https://bucket.example/b.zip?X-Amz-Signature=x', 'http://10.0.0.5:8080/b.tar.gz', 'file:///srv/bundle.zip', './bundles/site.zip', '/srv/site']) {
      const { dir, file } = configWith(url);
      try {
        const res = await runCli(['doctor', '--config', file], { cwd: dir });
        expect(res.err).not.toContain('staticExport.bundleUrl');
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    }
  });
});
