import type { AutomationConfig } from '../../config/automations.js';
import { neutraliseTemplateTokens } from '../agent/template-tokens.js';
import { MAX_CHANGES_CHARS, type RepositoryChange } from './changes.js';
import type { ExportReport } from './export-report.js';

/**
 * The predefined automations (docs/automations.md): instruction templates for what makes sense
 * inside a network. `instruction`, when given beside one, is appended as the operator's own notes.
 */
export const PREDEFINED_INSTRUCTIONS: Record<NonNullable<AutomationConfig['predefined']>, string> = {
  'update-from-code': [
    'Keep the documentation in step with the code. Below are the changes merged in the context repositories (the code the docs describe) since the last completed run.',
    'For each change that affects what a reader does or sees (an option, an API field, a command, a default, a behaviour), find the pages that describe it and update them. Ignore internal refactorings, tests and build changes.',
    'Group related edits; cite the commit (short hash) each edit comes from in your summary. If no page needs to change, change nothing and say so.',
  ].join('\n'),
  'draft-changelog': [
    'Draft a changelog entry from the changes below (merged since the last completed run).',
    'Add one new entry at the top of the changelog page (changelog.mdx, or the page the navigation lists as the changelog): a dated heading, then short reader-facing bullet points grouped as Added, Changed, Fixed. Leave out internal changes. Do not edit older entries.',
  ].join('\n'),
  'translate-changes': [
    'Translate the pages that changed into the site\'s other languages.',
    'Read docs.json: the navigation lists the languages (navigation.languages). For each page of the default language that changed since the last completed run (the changes of this documentation repository are listed below), update the page at the same path of every other language, keeping its frontmatter keys, components and code blocks unchanged and translating only prose, titles and descriptions. Pages of the other languages that changed need nothing.',
  ].join('\n'),
  'fix-broken-links': [
    'Fix broken links in the documentation.',
    'Find links in the pages (Markdown links, href attributes, cards and navigation entries) that point to pages or anchors that do not exist in this repository, and correct each one to the page or heading it meant; remove a link only when nothing it could mean exists. Do not change external links.',
  ].join('\n'),
};

/** The agent's instruction for one run: the automation's prompt, then what changed since the last completed run. */
export function runInstruction(automation: AutomationConfig, sources: number, changes: readonly RepositoryChange[], report?: ExportReport): string {
  const own = automation.instruction?.trim();
  let base = automation.predefined ? [PREDEFINED_INSTRUCTIONS[automation.predefined], ...(own ? [`Notes from the operator:\n${own}`] : [])].join('\n\n') : own!;
  if (automation.predefined === 'fix-broken-links' && report?.brokenLinkCount) base = `${base}\n\n${describeReport(report)}`;
  if (!sources) return base;
  const sections = changes.map(describe);
  let text = sections.join('\n\n');
  if (text.length > MAX_CHANGES_CHARS) text = `${text.slice(0, MAX_CHANGES_CHARS)}\n… (the change list is cut at ${MAX_CHANGES_CHARS} characters)`;
  // Commit subjects and paths are other people's text: no chat-template token of theirs reaches the model.
  return `${base}\n\n## What changed since the last completed run (automation "${automation.id}")\n\n${neutraliseTemplateTokens(text)}`;
}

function describe(c: RepositoryChange): string {
  const range = c.since ? `${c.since.slice(0, 12)}..${c.head.slice(0, 12)}` : `the latest commits up to ${c.head.slice(0, 12)} (no completed run before this one)`;
  const listed = c.commits.map((k) => `- ${k.sha.slice(0, 10)} ${k.subject} (${k.author})`);
  const more = c.commitCount > c.commits.length ? [`- … ${c.commitCount - c.commits.length} older commits not listed`] : [];
  return [
    `### ${c.url}${c.branch ? ` (branch ${c.branch})` : ''}: ${c.commitCount} commit${c.commitCount === 1 ? '' : 's'}, ${range}`,
    '',
    ...listed,
    ...more,
    '',
    'Files changed:',
    '```',
    c.diffstat || '(no file changes)',
    '```',
  ].join('\n');
}

/** The broken links the last export reported, as the agent's starting list (file:line and the renderer's words). */
function describeReport(r: ExportReport): string {
  const lines = r.brokenLinks.map((w) => `- ${w.file}${w.line ? `:${w.line}` : ''}: ${w.message}`);
  const more = r.brokenLinkCount > r.brokenLinks.length ? [`- … ${r.brokenLinkCount - r.brokenLinks.length} more not listed`] : [];
  return neutraliseTemplateTokens([`## Broken links the last export reported (${r.source}, ${r.at})`, '', ...lines, ...more].join('\n'));
}
