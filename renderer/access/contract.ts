/**
 * Reader access (issue 40, docs/reader-access.md): what the renderer writes into a bundle of a
 * project with `auth`, and what the site listener enforces from it. The bundle carries the rules;
 * the appliance, a replica or the static-export filter apply them to a reader's view. A bundle of
 * a project without `auth` carries none of this and is byte-for-byte what it was before.
 */

/**
 * What a reader must be to receive a file or a fragment:
 * - `public`: anyone;
 * - `signed-in`: any signed-in reader;
 * - `groups:<a>,<b>`: a signed-in reader in at least one of the (sorted, deduplicated) groups.
 */
export type Requirement = 'public' | 'signed-in' | `groups:${string}`;

/** `manifest.json`'s `access`: present only in bundles rendered with authentication on. */
export interface BundleAccess {
  format: 1;
  /**
   * Requirement of files that is not `defaultRequirement`, by bundle path: pages (`x/index.html`,
   * `x.md`), images and other assets used only by restricted pages, search shards of restricted
   * pages. A file not listed has the default.
   */
  files: Record<string, Requirement>;
  /**
   * `public` when at least one page is public (partial authentication: the theme, the 404 page
   * and unlisted assets are public), `signed-in` otherwise (full authentication).
   */
  defaultRequirement: 'public' | 'signed-in';
  /** Text files (HTML, `.md`, `llms*.txt`, `sitemap.xml`, JSON listings) that carry fragment markers. */
  marked: string[];
  /** For the console: how many pages each kind. */
  pages: { public: number; signedIn: number; groups: number };
}

/** Who is asking, as far as access goes. `null` groups never appear: signed out is `signedIn: false`. */
export interface ReaderView {
  signedIn: boolean;
  groups: ReadonlySet<string>;
}

export const ANONYMOUS: ReaderView = Object.freeze({ signedIn: false, groups: new Set<string>() });
/** The view that sees everything: a static export with `include: "all"`, a project without auth. */
export const EVERYTHING: ReaderView & { all: true } = Object.freeze({ signedIn: true, groups: new Set<string>(), all: true as const });

/** The requirement of a page from its own settings (frontmatter `public`/`groups`, a navigation group's `public`, an operation's `x-mint.groups`). */
export function requirementOf(opts: { public?: boolean; groups?: readonly string[] | null }): Requirement {
  const groups = [...new Set((opts.groups ?? []).map((g) => String(g).trim()).filter(Boolean))].sort();
  // Mintlify: "Pages with public: true and no groups property are accessible to everyone";
  // a page with groups is for those groups whether or not it also says public.
  if (groups.length > 0) return `groups:${groups.join(',')}`;
  return opts.public ? 'public' : 'signed-in';
}

export function groupsOf(req: Requirement): string[] {
  return req.startsWith('groups:') ? req.slice('groups:'.length).split(',') : [];
}

export function canSee(req: Requirement, view: ReaderView): boolean {
  if ('all' in view && (view as { all?: boolean }).all) return true;
  if (req === 'public') return true;
  if (!view.signedIn) return false;
  if (req === 'signed-in') return true;
  for (const g of groupsOf(req)) if (view.groups.has(g)) return true;
  return false;
}

/**
 * The weakest requirement that lets through every reader who may see any of `reqs`: what a file
 * shared by several pages needs (an image used by a public page and an admin page is public).
 */
export function unionOf(reqs: Iterable<Requirement>): Requirement {
  const groups = new Set<string>();
  let any = false;
  for (const r of reqs) {
    any = true;
    if (r === 'public') return 'public';
    if (r === 'signed-in') return 'signed-in' as Requirement;
    for (const g of groupsOf(r)) groups.add(g);
  }
  if (!any) return 'public';
  return requirementOf({ groups: [...groups] });
}

/**
 * Fragment markers: `<!--da:R-->` … `<!--/da-->`, R the requirement, URI-encoded (so a group
 * name can never close the comment). Render workers write them without any shared table. They
 * nest (a sidebar group around its pages). HTML comments, so a marked file is still well-formed
 * HTML/XML/Markdown; JSON listings are written so that removing any set of fragments leaves
 * valid JSON (the writer puts the separator inside the fragment).
 */
export const markOpen = (req: Requirement): string => `<!--da:${encodeURIComponent(req)}-->`;
export const MARK_CLOSE = '<!--/da-->';
export const wrap = (req: Requirement, fragment: string): string => markOpen(req) + fragment + MARK_CLOSE;

/** A marker's requirement, or undefined when it is not one (fails closed in the filter). */
export function parseMarked(encoded: string): Requirement | undefined {
  let r: string;
  try {
    r = decodeURIComponent(encoded);
  } catch {
    return undefined;
  }
  if (r === 'public' || r === 'signed-in') return r;
  if (/^groups:[^,]+(,[^,]+)*$/.test(r)) return r as Requirement;
  return undefined;
}
