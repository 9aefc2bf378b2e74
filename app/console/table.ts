/**
 * Server-side tables: sorted and paged on the server, each header a link, each table also a CSV
 * download. Several tables share one page, so a table's query parameters carry its id
 * (`exports.sort`, `exports.page`, …).
 */

export type Cell =
  | string
  | number
  | null
  | { link: string; text: string }
  | { progress: number; jobId: string; done: boolean }
  /** A form button: `text` is what it shows, `label` its accessible name (which row it acts on). */
  | { action: string; text: string; label: string; danger?: boolean }
  | { code: string }
  /** A time: `text` relative ("5 min ago"), `exact` on hover (time.ts). */
  | { time: string; text: string; exact: string };

export interface Column<T> {
  key: string;
  label: string;
  /** The value sorted on and written to the CSV. */
  value: (row: T) => string | number | null;
  /** What the HTML cell shows; default: the value. */
  cell?: (row: T) => Cell;
  /** Columns that are only HTML controls (an action button) are left out of the CSV. */
  csv?: boolean;
  /** Columns only for the CSV (the raw fields behind a sentence the page shows). */
  html?: boolean;
  sortable?: boolean;
  numeric?: boolean;
}

export type Dir = 'asc' | 'desc';

/** The rows of one page, sorted: an array source sorts in memory, a store source in SQL. */
export type Source<T> = (sort: Column<T>, dir: Dir, offset: number, limit: number) => { rows: T[]; total: number };

export interface TableSpec<T> {
  id: string;
  caption: string;
  columns: Column<T>[];
  source: Source<T>;
  defaultSort: string;
  defaultDir: Dir;
  pageSize?: number;
  /** Shown when there are no rows. */
  empty: string;
}

/** Largest CSV download: past it the file ends and its last line says how many rows were left out. */
export const CSV_MAX_ROWS = 100_000;

export function arraySource<T>(rows: readonly T[]): Source<T> {
  return (sort, dir, offset, limit) => {
    const sign = dir === 'asc' ? 1 : -1;
    const sorted = [...rows].sort((a, b) => sign * compare(sort.value(a), sort.value(b)));
    return { rows: sorted.slice(offset, offset + limit), total: rows.length };
  };
}

function compare(a: string | number | null, b: string | number | null): number {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a) < String(b) ? -1 : 1;
}

type Query = Record<string, unknown>;

function chosen<T>(spec: TableSpec<T>, query: Query): { sort: Column<T>; dir: Dir } {
  const key = query[`${spec.id}.sort`];
  const sort = spec.columns.find((c) => c.key === key && c.sortable !== false) ?? spec.columns.find((c) => c.key === spec.defaultSort)!;
  const d = query[`${spec.id}.dir`];
  const dir: Dir = d === 'asc' || d === 'desc' ? d : sort.key === spec.defaultSort ? spec.defaultDir : 'asc';
  return { sort, dir };
}

export interface TableView {
  id: string;
  caption: string;
  empty: string;
  headers: { label: string; numeric: boolean; sortUrl: string | null; ariaSort: 'ascending' | 'descending' | 'none' }[];
  rows: Cell[][];
  total: number;
  page: number;
  pages: number;
  prevUrl: string | null;
  nextUrl: string | null;
  csvUrl: string;
}

/** The page of a table the query asks for; `path` is the page's own path (links keep the other tables' state). */
export function buildTable<T>(spec: TableSpec<T>, query: Query, path: string): TableView {
  const size = spec.pageSize ?? 20;
  const { sort, dir } = chosen(spec, query);
  const requested = Number(query[`${spec.id}.page`]);
  let page = Number.isInteger(requested) && requested >= 1 ? requested : 1;
  let { rows, total } = spec.source(sort, dir, (page - 1) * size, size);
  const pages = Math.max(1, Math.ceil(total / size));
  if (page > pages) {
    page = pages;
    rows = spec.source(sort, dir, (page - 1) * size, size).rows;
  }
  const shown = spec.columns.filter((c) => c.html !== false);
  const url = (changes: Record<string, string | null>) => {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) if (typeof v === 'string') params.set(k, v);
    for (const [k, v] of Object.entries(changes)) {
      if (v === null) params.delete(k);
      else params.set(k, v);
    }
    const qs = params.toString();
    return qs ? `${path}?${qs}` : path;
  };
  return {
    id: spec.id,
    caption: spec.caption,
    empty: spec.empty,
    headers: shown.map((c) => ({
      label: c.label,
      numeric: c.numeric === true,
      sortUrl:
        c.sortable === false
          ? null
          : url({ [`${spec.id}.sort`]: c.key, [`${spec.id}.dir`]: c.key === sort.key && dir === 'asc' ? 'desc' : 'asc', [`${spec.id}.page`]: null }),
      ariaSort: c.key === sort.key ? (dir === 'asc' ? 'ascending' : 'descending') : 'none',
    })),
    rows: rows.map((r) => shown.map((c) => (c.cell ? c.cell(r) : c.value(r)))),
    total,
    page,
    pages,
    prevUrl: page > 1 ? url({ [`${spec.id}.page`]: String(page - 1) }) : null,
    nextUrl: page < pages ? url({ [`${spec.id}.page`]: String(page + 1) }) : null,
    csvUrl: url({ csv: spec.id, [`${spec.id}.page`]: null }),
  };
}

/**
 * The whole table as CSV, in the order the page shows it. A value that a spreadsheet would run as
 * a formula (a reader's search term `=HYPERLINK(…)`) is prefixed with `'`.
 */
export function tableCsv<T>(spec: TableSpec<T>, query: Query): string {
  const { sort, dir } = chosen(spec, query);
  const cols = spec.columns.filter((c) => c.csv !== false);
  const { rows, total } = spec.source(sort, dir, 0, CSV_MAX_ROWS);
  const lines = [cols.map((c) => csvField(c.label)).join(',')];
  for (const r of rows) lines.push(cols.map((c) => csvField(c.value(r))).join(','));
  if (total > rows.length) lines.push(csvField(`… ${total - rows.length} more rows not included (limit ${CSV_MAX_ROWS})`));
  return lines.join('\r\n') + '\r\n';
}

function csvField(v: string | number | null): string {
  if (v === null) return '';
  let s = String(v);
  if (typeof v === 'string' && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}
