/** What a built-in component renderer gets: its props, its children, and the page's helpers. */
import { iconLibrary, iconSvg, renderIcon } from '../../icons/index.js';
import type { Env } from '../env.js';
import { escapeHtml } from '../html.js';
import { parseJsxExpression } from '../js-grammar.js';
import { jsxToNodes } from '../jsx-tree.js';
import type { Literal } from '../literal.js';
import { resolveAsset, resolveHref } from '../links.js';
import { isOutsideUrl, outsideImagePlaceholder } from '../outside-media.js';
import { evaluateProps, renderElement, renderNodes, userComponentBody, type Mode } from '../render.js';
import type { PageState } from '../state.js';
import type { ElementNode, Node } from '../tree.js';

export type ComponentRenderer = (call: ComponentCall) => string;

export const SAFE_COLOR_RE = /^(?:#[0-9a-fA-F]{3,8}|[a-zA-Z]{3,20}|(?:rgb|rgba|hsl|hsla|oklch)\([\d\s.,%/-]+\)|var\(--[\w-]+\))$/;
/** Snippets inside snippets, followed for a container's children; past this they are left out. */
const MAX_CHILD_EXPANSION = 20;
const ICON_URL_RE = /^(?:https?:)?\/\/|^\/|\.(?:svg|png|jpe?g|gif|webp)$/i;

export class ComponentCall {
  readonly props: Record<string, Literal>;
  /** Children taken from a snippet or arrow component (childElements): the env they belong to. */
  private readonly childEnvs = new Map<ElementNode, Env>();

  constructor(
    readonly el: ElementNode,
    readonly env: Env,
    readonly state: PageState,
    /** Attributes that are code are computed in the sandbox as text (not for islands: theirs run with them). */
    computeCode = true,
  ) {
    this.props = evaluateProps(el, env, computeCode ? state : undefined);
  }

  get name(): string {
    return this.el.name;
  }

  /** A prop as text (numbers and booleans stringified), or undefined when absent or empty. */
  str(name: string): string | undefined {
    const v = this.props[name];
    if (typeof v === 'string') return v === '' ? undefined : v;
    if (typeof v === 'number') return String(v);
    return undefined;
  }

  num(name: string): number | undefined {
    const v = this.props[name];
    const n = typeof v === 'number' ? v : typeof v === 'string' ? Number(v) : NaN;
    return Number.isFinite(n) ? n : undefined;
  }

  /** Bare attributes and `{true}` are true; `"false"`/`{false}` false. */
  bool(name: string): boolean {
    const v = this.props[name];
    return v === true || v === 'true' || v === '';
  }

  has(name: string): boolean {
    return name in this.props;
  }

  /** The component's children, rendered (markdown paragraphs when they span lines). */
  children(mode?: Mode): string {
    return renderNodes(this.el.children, this.env, this.state, mode ?? (this.el.multiline ? 'block' : 'inline'));
  }

  /**
   * Child elements with one of the given names (whitespace and other content ignored). A child
   * that is a snippet or arrow-function component, or a fragment, stands for what it renders: its
   * own top-level elements are taken in its place, as React would see them (`<Steps>` whose steps
   * come from `<CliInitStep />`, a snippet holding one `<Step>`); so is `{children}` in a wrapper
   * component's `<Steps>{children}</Steps>`.
   */
  childElements(...names: string[]): ElementNode[] {
    const out: ElementNode[] = [];
    this.collectChildren(this.el.children, this.env, names, out, 0);
    return out;
  }

  private collectChildren(nodes: Node[], env: Env, names: string[], out: ElementNode[], depth: number): void {
    for (const n of nodes) {
      if (n.kind === 'expr') {
        // `<Steps>{children}</Steps>` in a wrapper component: the caller's children are the items.
        const code = n.code.trim();
        const caller = env.children;
        if (caller && depth < MAX_CHILD_EXPANSION && (code === 'children' || code === 'props.children')) {
          this.collectChildren(caller.nodes, caller.env, names, out, depth + 1);
        }
        continue;
      }
      if (n.kind !== 'element') continue;
      if (names.length === 0 || names.includes(n.name)) {
        if (env === this.env) {
          out.push(n);
        } else {
          // A copy per call: one snippet used twice gives two children, each with its own props.
          const copy = { ...n };
          this.childEnvs.set(copy, env);
          out.push(copy);
        }
        continue;
      }
      if (depth >= MAX_CHILD_EXPANSION) continue;
      if (n.name === '') {
        this.collectChildren(n.children, env, names, out, depth + 1);
        continue;
      }
      const def = env.scope.components.get(n.name);
      if (def && (def.kind === 'snippet' || def.kind === 'arrow')) {
        const body = userComponentBody(def, n, env, this.state);
        this.collectChildren(body.nodes, body.env, names, out, depth + 1);
      }
    }
  }

  /** A child element rendered as a component call of its own (Tab inside Tabs, Step inside Steps). */
  sub(el: ElementNode): ComponentCall {
    return new ComponentCall(el, this.childEnvs.get(el) ?? this.env, this.state);
  }

  render(el: ElementNode): string {
    return renderElement(el, this.env, this.state);
  }

  /**
   * The icon a component's `icon` prop names: from the site's library (`iconType` picks a Font
   * Awesome style), an image icon (URL or repo path), or an `icon={<svg>…</svg>}` attribute
   * rendered like raw HTML, sanitised. A name the library lacks is warned about with this
   * component's line and gives '' (a Font Awesome Pro name gives a placeholder of the same size).
   */
  icon(name: string | undefined, className = 'c-icon'): string {
    if (!name) {
      // A JSX icon (`icon={<Logo />}`) goes in the same icon box as a named one; the box itself
      // lays out nothing (components.css `.c-icon-jsx`), it only sizes an SVG that sets no size.
      // An outside image in it is the small stand-in: the box is an icon's size (outside-media.ts).
      this.state.iconDepth++;
      try {
        const jsx = this.jsxAttr('icon');
        return jsx && `<span class="c-icon-jsx">${jsx}</span>`;
      } finally {
        this.state.iconDepth--;
      }
    }
    if (ICON_URL_RE.test(name)) {
      const src = resolveAsset(name, this.state, this.env);
      // An icon hosted elsewhere would not load: the icon-only stand-in, in the icon's own box.
      if (src && isOutsideUrl(src)) return outsideImagePlaceholder(this.state, src, 'Icon', { linked: false, className, small: true }) ?? '';
      return src ? `<img class="${className}" src="${escapeHtml(src)}" alt="" aria-hidden="true">` : '';
    }
    const result = renderIcon(name, { library: iconLibrary(this.state.ctx.config.iconLibrary), iconType: this.str('iconType'), className });
    if (result.problem) this.warn(result.problem.code, `<${this.name}>: ${result.problem.message}`);
    return result.svg ?? '';
  }

  /** One of the theme's own icons (callout kinds, file trees): always Font Awesome, never warned. */
  themeIcon(name: string, className = 'c-icon'): string {
    return iconSvg(name, { className }) ?? '';
  }

  /** An attribute whose value is JSX (`icon={<svg …/>}`), rendered as HTML; '' otherwise. */
  jsxAttr(name: string): string {
    const attr = this.el.attrs.find((a) => a.name === name);
    if (attr?.value.kind !== 'expr') return '';
    const code = attr.value.code.trim();
    if (!code.startsWith('<')) return '';
    const parsed = parseJsxExpression(code);
    // The tag was parsed whole when the page was read, so this parses again without error.
    if ('error' in parsed) return '';
    const line = this.el.line;
    return renderNodes(jsxToNodes(parsed.expression, code, () => line), this.env, this.state, 'inline');
  }

  href(raw: string | undefined): string | undefined {
    return raw === undefined ? undefined : resolveHref(raw, this.state, this.env);
  }

  image(raw: string | undefined): string | undefined {
    return raw === undefined ? undefined : resolveAsset(raw, this.state, this.env);
  }

  /** A CSS colour from a prop, only when it is plainly a colour (it ends up in a style attribute). */
  color(name: string): string | undefined {
    const v = this.str(name)?.trim();
    return v && SAFE_COLOR_RE.test(v) ? v : undefined;
  }

  uid(prefix: string): string {
    return this.state.uid(prefix);
  }

  warn(code: string, message: string): void {
    this.state.warn(code, message, this.env.file, this.el.line);
  }
}
