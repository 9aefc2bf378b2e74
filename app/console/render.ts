import fs from 'node:fs';
import path from 'node:path';
import ejs from 'ejs';
import type { Response } from 'express';
import { packageRoot } from '../../renderer/theme/package-root.js';

type Compiled = (data: Record<string, unknown>) => string;
const compiled = new Map<string, Compiled>();

/** Views are read from the source tree (the TypeScript build copies no .ejs), compiled once. */
export const viewsDir = (): string => path.join(packageRoot(), 'app', 'console', 'views');
export const staticDir = (): string => path.join(packageRoot(), 'app', 'console', 'static');

function view(name: string): Compiled {
  const hit = compiled.get(name);
  if (hit) return hit;
  const filename = path.join(viewsDir(), `${name}.ejs`);
  // `<%=` escapes; `<%-` is used only for the layout includes and server-built SVG (svg-chart.ts escapes its text).
  const fn = ejs.compile(fs.readFileSync(filename, 'utf8'), { filename, _with: false, localsName: 'it', strict: true });
  const wrapped: Compiled = (data) => fn(data) as string;
  compiled.set(name, wrapped);
  return wrapped;
}

export function renderPage(res: Response, name: string, data: Record<string, unknown>, status = 200): void {
  res.status(status).type('html').send(view(name)({ ...res.locals.page, ...data }));
}
