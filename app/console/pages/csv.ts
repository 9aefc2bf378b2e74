import type { Response } from 'express';

export function sendCsv(res: Response, filename: string, body: string): void {
  res.type('text/csv; charset=utf-8');
  res.setHeader('Content-Disposition', `attachment; filename="${filename.replace(/[^A-Za-z0-9._-]/g, '_')}"`);
  res.send(body);
}
