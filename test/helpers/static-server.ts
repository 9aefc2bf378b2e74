import { spawn, type ChildProcess } from 'node:child_process';

export interface StaticServer {
  origin: string;
  close(): void;
}

/**
 * `python3 -m http.server` on an ephemeral loopback port, serving `root`: a plain static file
 * server with no rewrite rules, as a reader who unzips a bundle would run (DESIGN section 9).
 */
export async function pythonStaticServer(root: string): Promise<StaticServer> {
  const child: ChildProcess = spawn('python3', ['-u', '-m', 'http.server', '0', '--bind', '127.0.0.1', '--directory', root], { stdio: ['ignore', 'pipe', 'pipe'] });
  const origin = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`python http.server did not start: ${out}`)), 15_000);
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const port = /port (\d+)/.exec(out)?.[1];
      if (port) {
        clearTimeout(timer);
        resolve(`http://127.0.0.1:${port}`);
      }
    });
    // Its request log goes to stderr; read it so the pipe never fills.
    child.stderr?.resume();
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`python http.server exited ${code}: ${out}`)));
  });
  return { origin, close: () => child.kill() };
}
