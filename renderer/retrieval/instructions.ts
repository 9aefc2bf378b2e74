/**
 * docs.json `markdown.instructions` as the hosted platform renders them (mintlify-docs
 * ai/markdown-export.mdx, "Custom agent instructions"): an "Agent Instructions" quote block, one
 * line per instruction. It heads every page's Markdown and llms-full.txt, and follows the site's
 * title and description in llms.txt.
 */
export function agentInstructionsBlock(instructions: string | undefined): string {
  if (!instructions?.trim()) return '';
  const lines = instructions.split('\n').map((l) => l.trim()).filter(Boolean);
  return `> ## Agent Instructions\n${lines.map((l) => `> ${l}\n`).join('')}\n`;
}
