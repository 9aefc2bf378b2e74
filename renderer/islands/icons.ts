/**
 * Icons for running components. The browser runtime and the sandbox carry no icon library; each
 * page that has islands ships a table of the icons its components can show, as
 * `_static/islands/icons.<sha256-10>.js` (`__mintIslands.icons({…})`, loaded after the runtime),
 * and the sandbox gets the same table for the pre-render. Entries are drawn by the exporter's own
 * icon code (renderer/icons: the site's `icons.library`, `iconType`, Pro placeholders), so an
 * icon in an island is the same SVG as in MDX.
 *
 * Which names a page's table holds:
 * - names written as a literal `icon` prop in the components' code (`<Icon icon="rocket" />`,
 *   `{ icon: 'bolt' }`), and the theme icons of the callouts the code names (`<Note>`);
 * - when the code passes a computed name (`icon={item.icon}`): every string literal of the code and
 *   every string in the island's props that is an icon of the site's library, at most
 *   DYNAMIC_ICON_LIMIT per page;
 * - names the pre-render asked for (it is rendered again once with them).
 * A name none of these found (computed in the browser from something else) shows a neutral
 * placeholder glyph of the icon's size, with a console warning.
 */
import { Parser } from 'acorn';
import { iconLibrary, renderIcon, type IconProblem } from '../icons/index.js';

/** Key (`name`, `name|iconType`, `theme:name`) → [svg attributes, inner SVG], or 0: not an icon (nothing renders). */
export type IconEntry = [Record<string, string>, string] | 0;
export type IconTable = Record<string, IconEntry>;

export const DYNAMIC_ICON_LIMIT = 48;
/** Replaced by each use's own class (client/mintlify.js svgNode). */
const CLASS_SLOT = 'mint-class-slot';
const NAME_RE = /^(?:[a-z0-9]+(?:-[a-z0-9]+)*|[A-Z][A-Za-z0-9]*|(?:fa-[a-z]+ )?fa-[a-z0-9-]+)$/;
const MAX_STRINGS = 2000;

/** What a compiled module's code says about icons (see compile.ts). */
export interface ModuleIcons {
  /** Literal `icon` props: [name, iconType]. */
  names: [string, string | undefined][];
  /** Theme icon names of the callouts the code uses. */
  theme: string[];
  /** An `icon` prop whose value is computed. */
  dynamic: boolean;
  /** The code's string literals that could be icon names (for the dynamic fallback). */
  strings: string[];
}

// A Map, not an object: identifiers such as `toString` or `constructor` must not match.
const CALLOUT_ICONS = new Map<string, string>([
  ['Note', 'circle-info'],
  ['Info', 'circle-info'],
  ['Callout', 'circle-info'],
  ['Tip', 'lightbulb'],
  ['Warning', 'triangle-exclamation'],
  ['Check', 'circle-check'],
  ['Danger', 'circle-xmark'],
]);

type JsNode = { type: string; [key: string]: unknown };

function isNode(v: unknown): v is JsNode {
  return typeof v === 'object' && v !== null && typeof (v as { type?: unknown }).type === 'string';
}

function literalString(n: unknown): string | undefined {
  if (!isNode(n)) return undefined;
  if (n.type === 'Literal' && typeof n['value'] === 'string') return n['value'];
  if (n.type === 'TemplateLiteral' && Array.isArray(n['expressions']) && n['expressions'].length === 0) {
    const q = (n['quasis'] as { value: { cooked?: string } }[])[0];
    return q?.value.cooked;
  }
  return undefined;
}

function keyName(n: unknown): string | undefined {
  if (!isNode(n)) return undefined;
  if (n.type === 'Identifier') return n['name'] as string;
  return literalString(n);
}

/** Reads compiled (plain JavaScript) module code; a module it cannot read counts as computing names. */
export function moduleIcons(code: string): ModuleIcons {
  const out: ModuleIcons = { names: [], theme: [], dynamic: false, strings: [] };
  let tree: unknown;
  try {
    tree = Parser.parse(code, { ecmaVersion: 'latest', sourceType: 'script', allowReturnOutsideFunction: true, allowAwaitOutsideFunction: true });
  } catch {
    out.dynamic = true;
    for (const m of code.matchAll(/(["'])((?:(?!\1)[^\\\n]){1,60})\1/g)) if (out.strings.length < MAX_STRINGS && NAME_RE.test(m[2] as string)) out.strings.push(m[2] as string);
    return out;
  }
  const theme = new Set<string>();
  const stack: unknown[] = [tree];
  while (stack.length > 0) {
    const n = stack.pop();
    if (Array.isArray(n)) {
      for (const c of n) stack.push(c);
      continue;
    }
    if (!isNode(n)) continue;
    if (n.type === 'ObjectExpression') {
      const props = (n['properties'] as JsNode[]).filter((p) => p.type === 'Property');
      const icon = props.find((p) => keyName(p['key']) === 'icon');
      if (icon) {
        const name = literalString(icon['value']);
        const typeProp = props.find((p) => keyName(p['key']) === 'iconType');
        const iconType = typeProp ? literalString(typeProp['value']) : undefined;
        if (name !== undefined) out.names.push([name, iconType]);
        else out.dynamic = true;
      }
    } else if (n.type === 'Identifier') {
      const themeIcon = CALLOUT_ICONS.get(n['name'] as string);
      if (themeIcon) theme.add(themeIcon);
    } else {
      const s = literalString(n);
      if (s !== undefined && out.strings.length < MAX_STRINGS && s.length <= 60 && NAME_RE.test(s)) out.strings.push(s);
    }
    for (const [k, v] of Object.entries(n)) if (k !== 'type' && typeof v === 'object' && v !== null) stack.push(v);
  }
  out.theme = [...theme].sort();
  return out;
}

/** The strings in an island's props (nested arrays and objects too), for the dynamic fallback. */
export function propStrings(value: unknown, out: string[] = [], depth = 0): string[] {
  if (out.length >= MAX_STRINGS || depth > 8) return out;
  if (typeof value === 'string') {
    if (value.length <= 60 && NAME_RE.test(value)) out.push(value);
  } else if (Array.isArray(value)) for (const v of value) propStrings(v, out, depth + 1);
  else if (typeof value === 'object' && value !== null) for (const v of Object.values(value)) propStrings(v, out, depth + 1);
  return out;
}

function decode(value: string): string {
  return value.replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

/** The exporter's SVG for a name, split into attributes and inner markup for the client. */
function entryOf(svg: string): IconEntry {
  const m = /^<svg ([^>]*)>([\s\S]*)<\/svg>$/.exec(svg);
  if (!m) return 0;
  const attrs: Record<string, string> = {};
  for (const a of (m[1] as string).matchAll(/([\w:-]+)="([^"]*)"/g)) attrs[a[1] as string] = decode(a[2] as string);
  return [attrs, m[2] as string];
}

export function iconKey(name: string, iconType: string | undefined, theme: boolean): string {
  return theme ? `theme:${name}` : iconType ? `${name}|${iconType}` : name;
}

/**
 * One page's icon table. `library` is docs.json `icons.library` as configured.
 */
export class PageIconTable {
  readonly table: IconTable = {};
  private dynamicCount = 0;

  constructor(private readonly library: unknown) {}

  get size(): number {
    return Object.keys(this.table).length;
  }

  /**
   * Adds a name as the exporter would draw it; a problem (unknown name, Pro icon) is returned for a
   * warning once per page. With `onlyIfIcon` (the dynamic fallback) a name that is no icon is not
   * recorded at all, and at most DYNAMIC_ICON_LIMIT such names are added per page.
   */
  add(name: string, iconType: string | undefined, theme: boolean, onlyIfIcon = false): IconProblem | undefined {
    const key = iconKey(name, iconType, theme);
    if (key in this.table) return undefined;
    if (onlyIfIcon && this.dynamicCount >= DYNAMIC_ICON_LIMIT) return undefined;
    const result = theme
      ? renderIcon(name, { className: CLASS_SLOT })
      : renderIcon(name, { library: iconLibrary(this.library), iconType, className: CLASS_SLOT });
    if (onlyIfIcon) {
      if (!result.svg || result.problem?.code === 'unknown-icon') return undefined;
      this.dynamicCount++;
    }
    this.table[key] = result.svg ? entryOf(result.svg) : 0;
    return result.problem;
  }

  /** `_static/islands/icons.<hash>.js` for the page, or undefined when it needs no icon. */
  script(hash: (text: string) => string): { bundlePath: string; code: string } | undefined {
    const keys = Object.keys(this.table).sort();
    if (keys.length === 0) return undefined;
    const sorted: IconTable = {};
    for (const k of keys) sorted[k] = this.table[k] as IconEntry;
    const code = `__mintIslands.icons(${JSON.stringify(sorted)});\n`;
    return { bundlePath: `_static/islands/icons.${hash(code)}.js`, code };
  }
}
