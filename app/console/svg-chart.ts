/**
 * Charts drawn on the server as inline SVG: no charting library, no script, nothing fetched.
 * Colours come from the stylesheet (classes), so light and dark themes apply. Every chart has a
 * title and a description for screen readers, and its numbers are also in a table on the page.
 */

const esc = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export interface Point {
  label: string;
  value: number;
}

const W = 640;
const H = 240;
const PAD = { top: 16, right: 12, bottom: 40, left: 48 };

function frame(id: string, title: string, desc: string, body: string, height = H): string {
  return (
    `<svg class="chart" id="${esc(id)}" viewBox="0 0 ${W} ${height}" role="img" aria-labelledby="${esc(id)}-t ${esc(id)}-d" xmlns="http://www.w3.org/2000/svg">` +
    `<title id="${esc(id)}-t">${esc(title)}</title><desc id="${esc(id)}-d">${esc(desc)}</desc>${body}</svg>`
  );
}

/**
 * The y axis of a chart of counts: whole-number ticks only (a count of 2.5 searches means
 * nothing), a step of 1, 2 or 5 times a power of ten, at most about five ticks; the top is the
 * first tick at or above the largest value.
 */
export function countTicks(maxValue: number): number[] {
  const max = Math.max(1, Math.ceil(maxValue));
  const rough = max / 4;
  const p = 10 ** Math.floor(Math.log10(Math.max(1, rough)));
  const step = Math.max(1, [1, 2, 5, 10].map((m) => m * p).find((s) => s >= rough) ?? 10 * p);
  const top = step * Math.ceil(max / step);
  const ticks: number[] = [];
  for (let v = 0; v <= top; v += step) ticks.push(v);
  return ticks;
}

/** Four equal steps up to `max` (percentages and other continuous values). */
const evenTicks = (max: number): number[] => [0, 1, 2, 3, 4].map((i) => (max * i) / 4);

function yAxis(ticks: readonly number[], unit: string): string {
  let out = '';
  const innerH = H - PAD.top - PAD.bottom;
  const max = ticks[ticks.length - 1]!;
  for (const v of ticks) {
    const y = PAD.top + innerH - (innerH * v) / max;
    out += `<line class="grid" x1="${PAD.left}" x2="${W - PAD.right}" y1="${y}" y2="${y}"/>`;
    out += `<text class="tick" x="${PAD.left - 6}" y="${y + 4}" text-anchor="end">${esc(fmt(v) + unit)}</text>`;
  }
  return out;
}

const fmt = (v: number): string => (Number.isInteger(v) ? String(v) : v.toFixed(1));

function xLabels(points: readonly Point[], xAt: (i: number) => number): string {
  // At most about eight labels, so dates stay readable on a phone.
  const every = Math.max(1, Math.ceil(points.length / 8));
  let out = '';
  const last = points.length - 1;
  points.forEach((p, i) => {
    // The last point is labelled too, unless the previous label is too close to it to read.
    const lastShown = i === last && last % every >= Math.ceil(every / 2);
    if (i % every === 0 || lastShown) out += `<text class="tick" x="${xAt(i)}" y="${H - PAD.bottom + 16}" text-anchor="middle">${esc(p.label)}</text>`;
  });
  return out;
}

/** Vertical bars, one per point (searches per day): counts, so the axis has whole-number ticks. */
export function barChart(id: string, title: string, points: readonly Point[], opts: { unit?: string } = {}): string {
  const unit = opts.unit ?? '';
  const ticks = countTicks(Math.max(0, ...points.map((p) => p.value)));
  const max = ticks[ticks.length - 1]!;
  const innerW = W - PAD.left - PAD.right;
  const innerH = H - PAD.top - PAD.bottom;
  const slot = innerW / Math.max(1, points.length);
  const xAt = (i: number) => PAD.left + slot * i + slot / 2;
  let bars = '';
  points.forEach((p, i) => {
    const h = (innerH * p.value) / max;
    bars += `<rect class="bar" x="${(PAD.left + slot * i + slot * 0.15).toFixed(1)}" y="${(PAD.top + innerH - h).toFixed(1)}" width="${(slot * 0.7).toFixed(1)}" height="${h.toFixed(1)}"><title>${esc(`${p.label}: ${fmt(p.value)}${unit}`)}</title></rect>`;
  });
  const total = points.reduce((s, p) => s + p.value, 0);
  const desc = points.length ? `${points.length} bars from ${points[0]!.label} to ${points[points.length - 1]!.label}; total ${fmt(total)}${unit}.` : 'No data.';
  return frame(id, title, desc, yAxis(ticks, unit) + bars + xLabels(points, xAt));
}

/** A line over points (click-through per day, in percent). */
export function lineChart(id: string, title: string, points: readonly Point[], opts: { unit?: string; max?: number } = {}): string {
  const unit = opts.unit ?? '';
  // A fixed top (100 %) has four even steps; otherwise the values are counts (visitors).
  const ticks = opts.max !== undefined ? evenTicks(opts.max) : countTicks(Math.max(0, ...points.map((p) => p.value)));
  const max = ticks[ticks.length - 1]!;
  const innerW = W - PAD.left - PAD.right;
  const innerH = H - PAD.top - PAD.bottom;
  const xAt = (i: number) => PAD.left + (points.length <= 1 ? innerW / 2 : (innerW * i) / (points.length - 1));
  const yAt = (v: number) => PAD.top + innerH - (innerH * v) / max;
  const d = points.map((p, i) => `${i ? 'L' : 'M'}${xAt(i).toFixed(1)} ${yAt(p.value).toFixed(1)}`).join(' ');
  const dots = points.map((p, i) => `<circle class="dot" cx="${xAt(i).toFixed(1)}" cy="${yAt(p.value).toFixed(1)}" r="3"><title>${esc(`${p.label}: ${fmt(p.value)}${unit}`)}</title></circle>`).join('');
  const desc = points.length ? `${points.length} points from ${points[0]!.label} to ${points[points.length - 1]!.label}.` : 'No data.';
  return frame(id, title, desc, yAxis(ticks, unit) + (points.length ? `<path class="line" d="${d}"/>` : '') + dots + xLabels(points, xAt));
}

/** Horizontal bars with their labels (top terms). */
export function hBarChart(id: string, title: string, points: readonly Point[]): string {
  const row = 24;
  const height = Math.max(60, PAD.top + row * points.length + 8);
  const labelW = 200;
  const max = Math.max(1, ...points.map((p) => p.value));
  const innerW = W - labelW - 60;
  let body = '';
  points.forEach((p, i) => {
    const y = PAD.top + i * row;
    const w = (innerW * p.value) / max;
    const label = p.label.length > 30 ? p.label.slice(0, 29) + '…' : p.label;
    body += `<text class="tick" x="${labelW - 8}" y="${y + 15}" text-anchor="end">${esc(label)}</text>`;
    body += `<rect class="bar" x="${labelW}" y="${y + 3}" width="${w.toFixed(1)}" height="${row - 8}"><title>${esc(`${p.label}: ${fmt(p.value)}`)}</title></rect>`;
    body += `<text class="tick" x="${(labelW + w + 6).toFixed(1)}" y="${y + 15}">${esc(fmt(p.value))}</text>`;
  });
  const desc = points.length ? `${points.length} terms, the first ${points[0]!.label} with ${fmt(points[0]!.value)}.` : 'No data.';
  return frame(id, title, desc, body, height);
}
