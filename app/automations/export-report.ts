import type { ListedWarning, WarningSummary } from '../loader/render-warnings.js';

/** Warning codes of the renderer that name a link or reference to something that does not exist. */
export const BROKEN_LINK_CODES = ['broken-link', 'missing-page', 'missing-asset', 'navigation-entry'] as const;

/** The broken links the project's last export reported: which export, when, and the listed ones. */
export interface ExportReport {
  /** "publish <id>" or "static export <id>". */
  source: string;
  at: string;
  /** Broken-link warnings among the listed ones (render-warnings.ts lists the first 100). */
  brokenLinks: ListedWarning[];
  /** How many broken-link warnings the export counted in all. */
  brokenLinkCount: number;
}

/** The newest of the candidates (a publish's bundle, a static export's), as an ExportReport. */
export function newestReport(candidates: Array<{ source: string; at: string; warnings: WarningSummary } | undefined>): ExportReport | undefined {
  const newest = candidates.filter((c): c is NonNullable<typeof c> => c !== undefined).sort((a, b) => (a.at < b.at ? 1 : -1))[0];
  if (!newest) return undefined;
  const codes: readonly string[] = BROKEN_LINK_CODES;
  return {
    source: newest.source,
    at: newest.at,
    brokenLinks: newest.warnings.warnings.filter((w) => codes.includes(w.code)),
    brokenLinkCount: Object.entries(newest.warnings.warningsByKind).reduce((n, [code, c]) => n + (codes.includes(code) ? c : 0), 0),
  };
}

/**
 * The project's last export report: the newest of its last successful publish (its bundle's
 * warnings, while that version is kept) and its last completed static export.
 */
export function createExportReports(deps: {
  publishes(projectId: string): Array<{ id: string; kind: string; status: string; createdAt: string; endedAt: string | null; warnings: () => WarningSummary | undefined }>;
  exports(projectId: string): Array<{ id: string; status: string; createdAt: string; finishedAt: string | null; warnings: WarningSummary | null }>;
}): (projectId: string) => ExportReport | undefined {
  return (projectId) => {
    const publish = deps.publishes(projectId).find((p) => p.kind === 'publish' && p.status === 'success');
    const publishWarnings = publish?.warnings();
    const exp = deps.exports(projectId).find((j) => j.status === 'completed' && j.warnings);
    return newestReport([
      publish && publishWarnings ? { source: `publish ${publish.id}`, at: publish.endedAt ?? publish.createdAt, warnings: publishWarnings } : undefined,
      exp?.warnings ? { source: `static export ${exp.id}`, at: exp.finishedAt ?? exp.createdAt, warnings: exp.warnings } : undefined,
    ]);
  };
}
