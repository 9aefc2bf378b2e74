/** Fixture pages of the personalization tests (create/personalization.mdx "Dynamic MDX content"). */
export const PERSONAL_FILES: Record<string, string> = {
  'docs.json': JSON.stringify({ name: 'Acme', theme: 'mint', navigation: { pages: ['index', 'welcome', 'plain'] } }),
  'index.mdx': '---\ntitle: Home\n---\nWelcome.\n',
  'welcome.mdx': [
    '---',
    'title: Welcome',
    '---',
    '',
    "import { PlanBadge } from '/snippets/plan-badge.jsx';",
    '',
    'Welcome back, {user.firstName}! Your {user.org?.plan} plan is ready.',
    '',
    '{',
    "  user.plan === 'enterprise'",
    '    ? <>Contact your admin to enable this feature.</>',
    '    : <>See <a href="/plain">pricing</a> for information about upgrading.</>',
    '}',
    '',
    '<PlanBadge />',
    '',
  ].join('\n'),
  // A snippet component that reads `user` itself.
  'snippets/plan-badge.jsx': 'export const PlanBadge = () => <span className="plan-badge">{user.plan ? `Plan: ${user.plan}` : "No plan"}</span>;\n',
  'plain.mdx': '---\ntitle: Plain\n---\n\nexport const team = { user: "someone" };\n\nNo reader here: {team.user}, {2 + 2}.\n',
};
