/**
 * An API page as an MDX element tree, built from the compact operation and rendered by the same
 * components as hand-written API pages (ParamField, ResponseField, Expandable, Tabs,
 * RequestExample, ResponseExample), so generated pages look the same and carry the same anchors.
 * Spec text (descriptions) goes in as Markdown text nodes, never parsed as MDX; only the HTML
 * elements CommonMark lets it hold are read as markup (`prose`), braces staying text.
 */
import { accessElement, enumElement, TAB_GROUPS_ATTR } from '../page/access-fragment.js';
import { BUILTIN_COMPONENTS } from '../page/components/index.js';
import { parseMdx } from '../page/parse.js';
import { kebabName, slugify } from '../page/slug.js';
import { API_ROWS, filled, type ApiStrings } from '../i18n/api-strings.js';
import { withoutPlaceholders } from '../page/state.js';
import type { ElementNode, Node, TextNode } from '../page/tree.js';
import type { ApiExamplePanel } from '../types.js';
import { exampleCode, exampleMedia, exampleOf } from './example.js';
import { componentElements, dedented, HTML_TAGS, holdsHtml, holdsMarkup, withoutLoneStars } from './prose.js';
import { requestSamples } from './snippets.js';
import type { ApiChannelPage, ApiCondition, ApiConditionPart, ApiConstraint, ApiMedia, ApiMessage, ApiOperation, ApiParameter, ApiSchema, ApiSchemaPage, ApiSecurity, JsonValue } from './types.js';

type Attrs = Record<string, string | boolean | undefined>;

/** The page's words: its language's API row and the content words' Expandable title for an object's fields. */
export interface TreeWords {
  api: ApiStrings;
  properties: string;
}

const ENGLISH: TreeWords = { api: API_ROWS.en, properties: 'properties' };

function el(name: string, attrs: Attrs, children: Node[]): ElementNode {
  const list: ElementNode['attrs'] = [];
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === false) continue;
    list.push({ name: k, value: v === true ? { kind: 'bool' } : { kind: 'string', value: v } });
  }
  return { kind: 'element', name, attrs: list, children, line: 1, block: true, multiline: true };
}

function md(text: string): TextNode {
  return { kind: 'text', value: `\n${withoutPlaceholders(withoutLoneStars(text))}\n` };
}

// Outside code spans: braces (MDX expressions) and a `<` that opens none of those tags (HTML, or
// a component of Mintlify's the text closes) nor an autolink. One per set of components.
const notMarkup = new Map<string, RegExp>();
function notMarkupRe(components: readonly string[]): RegExp {
  const key = components.join('|');
  let re = notMarkup.get(key);
  if (!re) {
    const names = components.length > 0 ? `|/?(?:${key})(?=[\\s/>])` : '';
    re = new RegExp(`(\`+)[^]*?\\1|[{}]|<(?!/?(?:${HTML_TAGS})(?=[\\s/>])${names}|https?:|mailto:)`, 'gi');
    if (notMarkup.size < 64) notMarkup.set(key, re);
  }
  re.lastIndex = 0;
  return re;
}

/**
 * Spec text (a description, a field's words): Markdown, which CommonMark lets hold HTML and
 * Mintlify lets hold its components (it reads descriptions as MDX). Text with HTML elements or
 * components is read as the page's own markup, so each element meets the raw HTML policy (an
 * `onclick` or a `<script>` is removed with `unsafe-html`) instead of showing as `<b>` typed out,
 * and a `<Note>` is the callout it is on hand-written pages; braces and any other `<` stay text.
 * Text without markup stays one Markdown text node. The indentation all lines share goes first
 * (`dedented`): MDX makes no code of indented lines, and an indented `<Note>` is still a Note.
 */
function prose(text: string): Node[] {
  const node = md(dedented(text));
  const components = [...componentElements(node.value)].filter((name) => Object.hasOwn(BUILTIN_COMPONENTS, name)).sort();
  if (components.length === 0 && !holdsHtml(node.value)) return [node];
  const source = node.value.replace(notMarkupRe(components), (m) => (m === '{' ? '&#123;' : m === '}' ? '&#125;' : m === '<' ? '&lt;' : m));
  try {
    return parseMdx('openapi', source, 1, { esm: false }).nodes;
  } catch {
    // Markup the MDX reader refuses (an unclosed `<b>`): the text as it was, escaped.
    return [node];
  }
}

/** Inline code in Markdown, whatever backticks the value holds. */
function code(value: string): string {
  const run = Math.max(0, ...[...value.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(run + 1);
  return `${fence}${run > 0 ? ' ' : ''}${value.replace(/\n/g, ' ')}${run > 0 ? ' ' : ''}${fence}`;
}

/** A code block of the examples column: a Markdown fence, or (render.ts) the block already rendered. */
export type CodeBlock = (lang: string, title: string, body: string) => TextNode;

/** The fence's info string: language and a title without quotes or line breaks. */
export function fenceInfo(lang: string, title: string): string {
  return `${lang || 'text'} title="${title.replace(/["\n]/g, '')}"`;
}

function fenced(lang: string, title: string, body: string): TextNode {
  const run = Math.max(2, ...[...body.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(run + 1);
  return md(`${fence}${fenceInfo(lang, title)}\n${body}\n${fence}`);
}

function display(v: JsonValue): string {
  return typeof v === 'string' ? v : JSON.stringify(v);
}

/** An option or default as shown: one that is empty, blank or holds control characters (`"\r\n"`) quoted, or it would not be seen. */
function shown(v: JsonValue): string {
  return typeof v === 'string' && (v.trim() === '' || /[\u0000-\u001f]/.test(v)) ? JSON.stringify(v) : display(v);
}

function typeLabel(s: ApiSchema): string {
  let t = s.type;
  if (s.enum && s.enum.length > 0 && !t.endsWith('[]')) t = `enum<${t}>`;
  else if (s.format && !t.endsWith('[]') && !t.includes('|')) t = `${t}<${s.format}>`;
  return s.nullable ? `${t} | null` : t;
}

/** The words under a field's name: pills, description, options, constraints, example. */
/** An enum with values restricted by `x-mint-enum`: its options line is an element of its own (access-fragment.ts). */
const restrictedEnum = (s: ApiSchema): boolean => !!s.enumGroups && !!s.enum && s.enum.some((v) => s.enumGroups![shown(v)] !== undefined);

function fieldText(s: ApiSchema, w: ApiStrings, extraDescription?: string): string {
  const lines: string[] = [];
  const pills = [...(s.pre ?? []), ...(s.readOnly ? [w.readOnly] : []), ...(s.writeOnly ? [w.writeOnly] : []), ...(s.post ?? [])];
  if (pills.length > 0) lines.push(pills.map(code).join(' '));
  // The `if`/`then`/`else` sentences read as the end of the description (dedented with it, as
  // when the spec stage wrote them into it).
  const description = [extraDescription ?? s.description, ...(s.conditions ?? []).map((c) => conditionLine(c, w))].filter(Boolean).join('\n\n');
  if (description) lines.push(withoutLoneStars(dedented(description)));
  if (s.enum && s.enum.length > 0 && !restrictedEnum(s)) lines.push(filled(w.availableOptions, 'values', s.enum.map((v) => code(shown(v))).join(', ')));
  if (s.known && s.known.length > 0) lines.push(filled(w.knownValues, 'values', s.known.map((v) => code(shown(v))).join(', ')));
  for (const c of s.constraints ?? []) lines.push(c.value === undefined ? w[c.kind] : filled(w[c.kind], 'value', code(c.value)));
  if (s.example !== undefined && typeof s.example !== 'object') lines.push(filled(w.example, 'value', code(shown(s.example))));
  if (s.cut === 'circular') lines.push(filled(w.circularRef, 'type', code(s.type)));
  return lines.join('\n\n');
}

/** Backticks as the spec stage wrote them around names and values in these sentences (not code(): English stays byte-identical). */
const ticked = (v: string): string => `\`${v}\``;

/** A row's template with its placeholders filled in one pass, so a `{rule}` inside a value stays text. */
function said(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (m, k: string) => values[k] ?? m);
}

/** Two or more parts in a row's words: `a and b and c`, `x, y`. */
function joined(words: string[], template: string, many: string, one: string): string {
  return words.length === 0 ? '' : words.reduce((all, next) => said(template, { [many]: all, [one]: next }));
}

/**
 * A constraint as a rule in a sentence: its line's label (`Pattern: {value}` → `pattern`) and its
 * value; a line without a value (`Items must be unique`) as it is, as the spec stage wrote it.
 */
function ruleOf(c: ApiConstraint, w: ApiStrings): string {
  if (c.value === undefined) return w[c.kind];
  const label = w[c.kind].replace(/\s*[:：]\s*\{value\}$/, '');
  // Mid-sentence the label is lower case, but German nouns keep their capitals.
  const word = w === API_ROWS.de ? label : `${label.charAt(0).toLowerCase()}${label.slice(1)}`;
  return `${word} ${ticked(c.value)}`;
}

/** An `if`/`then`/`else` sentence under a field, in the page's words (schema.ts's conditional()). */
function conditionLine(c: ApiCondition, w: ApiStrings): string {
  const holds = c.branch === 'then';
  const part = (p: ApiConditionPart): string => {
    const name = ticked(p.name);
    if (p.kind === 'is') return said(holds ? w.condIs : w.condIsNot, { name, value: ticked(p.value) });
    if (p.kind === 'isOneOf') return said(holds ? w.condIsOneOf : w.condIsNotOneOf, { name, values: p.values.map(ticked).join(', ') });
    return said(holds ? w.condGiven : w.condNotGiven, { name });
  };
  const condition = c.when && c.when.length > 0 ? joined(c.when.map(part), w.condAnd, 'conditions', 'condition') : undefined;
  // Without a condition simple enough to say, the `…If` sentence ("when the schema's `if` condition holds").
  const pick = (stated: string, unstated: string): string => (condition === undefined ? unstated : stated);
  if (c.required) return said(holds ? pick(w.requiredWhen, w.requiredWhenIf) : pick(w.requiredOtherwise, w.requiredOtherwiseIf), { condition: condition ?? '' });
  const rules = [...(c.oneOf ? [said(w.ruleOneOf, { values: c.oneOf.map(ticked).join(', ') })] : []), ...(c.constraints ?? []).map((k) => ruleOf(k, w))];
  return said(holds ? pick(w.rulesWhen, w.rulesWhenIf) : pick(w.rulesOtherwise, w.rulesOtherwiseIf), { condition: condition ?? '', rules: joined(rules, w.ruleAnd, 'rules', 'rule') });
}

interface FieldStyle {
  component: 'ParamField' | 'ResponseField';
  /** ParamField's location prop (`body`, `query`…); ResponseField uses `name`. */
  location?: string;
  expandAll: boolean;
  direction: 'request' | 'response';
  words: TreeWords;
  /**
   * The anchor Mintlify's own generated pages give the fields here, less the field's name:
   * `body`, `response`, `body-one-of-0` in a choice's first tab (its links read
   * `#body-customer-metadata`, `#response-external-id`, `#body-one-of-0-return-url-one-of-0`).
   * Each field keeps its `param-…` id; this one is a second anchor, on the field's link.
   */
  alias?: string;
}

function withAlias(style: FieldStyle, alias: string | null): FieldStyle {
  const { alias: _, ...rest } = style;
  return alias === null ? rest : { ...rest, alias };
}

function aliasOf(style: FieldStyle, name: string): string | undefined {
  return style.alias === undefined ? undefined : `${style.alias}-${kebabName(name)}`;
}

/** The style a choice's `i`th tab is drawn in: its fields' Mintlify anchors go through `one-of-i`. */
function variantStyle(style: FieldStyle, i: number): FieldStyle {
  return style.alias === undefined ? style : { ...style, alias: `${style.alias}-one-of-${i}` };
}

/** A choice's tabs: a variant with properties lists them; any other is one field, named by its title. */
function variantTabs(variants: NonNullable<ApiSchema['variants']>, style: FieldStyle): ElementNode {
  return el(
    'Tabs',
    {},
    variants.map((v, i) => {
      const inner = variantStyle(style, i);
      const groups = v.schema.groups ? { [TAB_GROUPS_ATTR]: v.schema.groups.join(',') } : {};
      return el('Tab', { title: v.title, ...groups }, v.schema.properties ? fields(v.schema, inner) : [field(v.title, false, v.schema, style, undefined, inner.alias ?? null)]);
    }),
  );
}

/** The nested fields of a schema (object properties, array items' properties, variants). */
function childNodes(s: ApiSchema, style: FieldStyle): Node[] {
  if (s.cut) return [];
  if (s.prefixItems) {
    // A tuple's positions, `[0]`, `[1]`…, when one of them has fields of its own to show.
    if (!s.prefixItems.some((p) => p.properties || p.variants)) return [];
    return [el('Expandable', { title: style.words.api.items, defaultOpen: style.expandAll }, s.prefixItems.map((p, i) => field(`[${i}]`, false, p, style)))];
  }
  const target = s.items && !s.properties && !s.variants ? s.items : s;
  if (target.variants && target.variants.length > 0) return [variantTabs(target.variants, style)];
  if (target.properties && target.properties.length > 0) {
    return [el('Expandable', { title: target === s ? style.words.properties : style.words.api.items, defaultOpen: style.expandAll }, fields(target, style))];
  }
  return [];
}

function visible(s: ApiSchema, style: FieldStyle): boolean {
  return !(style.direction === 'request' && s.readOnly) && !(style.direction === 'response' && s.writeOnly);
}

function fields(s: ApiSchema, style: FieldStyle): Node[] {
  return (s.properties ?? [])
    .filter((p) => visible(p.schema, style))
    .map((p) => {
      const node = field(p.name, p.required, p.schema, style);
      return p.schema.groups ? accessElement(p.schema.groups, [node], true) : node;
    });
}

/** `alias`: the field's Mintlify anchor (fields.ts `mintAnchor`; null: none), and the prefix of its nested fields' (`within`). */
function field(name: string, required: boolean, s: ApiSchema, style: FieldStyle, description?: string, alias: string | null = aliasOf(style, name) ?? null, within: string | null = alias): ElementNode {
  const attrs: Attrs = style.component === 'ParamField' ? { [style.location ?? 'body']: name } : { name };
  if (alias !== null) attrs['mintAnchor'] = alias;
  attrs['type'] = typeLabel(s);
  if (required) attrs['required'] = true;
  if (s.deprecated) attrs['deprecated'] = true;
  if (s.default !== undefined) attrs['default'] = shown(s.default);
  const text = fieldText(s, style.words.api, description);
  const options = restrictedEnum(s) ? [enumElement(s.enum!.map((v) => [shown(v), s.enumGroups![shown(v)] ?? null]))] : [];
  const children = [...options, ...childNodes(s, (within ?? undefined) === style.alias ? style : withAlias(style, within))];
  // A field with nothing but its words gets them without the blank lines that keep a text apart
  // from sibling elements (marked renders them the same): one plain line is then escaped without
  // a marked call (renderMarkdown's plain-line path), as most spec descriptions are.
  if (text && children.length === 0 && !holdsMarkup(text)) return el(style.component, attrs, [{ kind: 'text', value: withoutPlaceholders(text) }]);
  return el(style.component, attrs, [...(text ? prose(text) : []), ...children]);
}

/**
 * A section heading in the page's language. Its id stays the English heading's slug (`#body`,
 * `#path-parameters`) in every language, so links into the section work whatever language they
 * were written against; English keeps its plain heading (the same output as before translation).
 */
function heading(text: string, english: string): TextNode {
  return md(text === english ? `## ${text}` : `## ${text} {#${slugify(english)}}`);
}

function securityNodes(all: ApiSecurity[], expandAll: boolean, tree: TreeWords): Node[] {
  const security = all.filter((alt) => alt.schemes.length > 0);
  if (security.length === 0) return [];
  // An empty alternative (`security: [{bearer: []}, {}]`): the endpoint also answers without credentials.
  const optional = security.length < all.length;
  const style: FieldStyle = { component: 'ParamField', expandAll, direction: 'request', words: tree };
  const alternative = (alt: ApiSecurity): Node[] =>
    alt.schemes.map((s): Node => {
      // Mutual TLS is the client's certificate on the connection: no header, query or cookie to fill.
      if (s.kind === 'mutualTLS') {
        const words = [filled(tree.api.mutualTls, 'name', code(s.name)), s.description, s.scopes ? filled(tree.api.requiredScopes, 'values', s.scopes.map(code).join(', ')) : undefined];
        return md(words.filter(Boolean).join('\n\n'));
      }
      let location = 'header';
      let name = 'Authorization';
      let description: string;
      const w = tree.api;
      if (s.kind === 'bearer') description = filled(filled(w.bearerAuth, 'form', code('Bearer <token>')), 'token', code('<token>'));
      else if (s.kind === 'basic') description = filled(filled(filled(w.basicAuth, 'form', code('Basic <encoded-value>')), 'value', code('<encoded-value>')), 'credentials', code('username:password'));
      else if (s.kind === 'apiKey') {
        location = s.in ?? 'header';
        name = s.param ?? s.name;
        description = filled(location === 'query' ? w.apiKeyQuery : location === 'cookie' ? w.apiKeyCookie : w.apiKeyHeader, 'name', code(name));
      } else if (s.kind === 'oauth2' || s.kind === 'openIdConnect') description = w.oauth2Token;
      else description = filled(w.httpCredentials, 'scheme', code(s.scheme ?? 'authentication'));
      // The scheme's own description "replaces the auto-generated text" (Mintlify's troubleshooting page).
      const words = [s.description ?? description, s.scopes ? filled(tree.api.requiredScopes, 'values', s.scopes.map(code).join(', ')) : undefined].filter(Boolean).join('\n\n');
      return field(name, !optional, { type: 'string' }, { ...style, location }, words);
    });
  const body: Node[] =
    security.length === 1 && security[0]
      ? alternative(security[0])
      : [el('Tabs', {}, security.map((alt) => el('Tab', { title: alt.schemes.map((s) => s.name).join(' + ') }, alternative(alt))))];
  return [heading(tree.api.authorizations, API_ROWS.en.authorizations), ...(optional ? [md(tree.api.optionalAuth)] : []), ...body];
}

const PARAM_SECTIONS: { in: ApiParameter['in']; title: keyof ApiStrings }[] = [
  { in: 'header', title: 'headers' },
  { in: 'path', title: 'pathParameters' },
  { in: 'query', title: 'queryParameters' },
  { in: 'cookie', title: 'cookies' },
];

function parameterNodes(params: ApiParameter[], expandAll: boolean, words: TreeWords): Node[] {
  const out: Node[] = [];
  for (const section of PARAM_SECTIONS) {
    const list = params.filter((p) => p.in === section.in);
    if (list.length === 0) continue;
    out.push(heading(words.api[section.title], API_ROWS.en[section.title]));
    const style: FieldStyle = { component: 'ParamField', location: section.in, expandAll, direction: 'request', words };
    for (const p of list) {
      const s: ApiSchema = { ...p.schema, ...(p.deprecated ? { deprecated: true } : {}), ...(p.example !== undefined && p.schema.example === undefined ? { example: p.example } : {}) };
      const node = field(p.name, p.required, s, style, p.description ?? p.schema.description);
      out.push(p.schema.groups ? accessElement(p.schema.groups, [node], true) : node);
    }
  }
  return out;
}

/** One media type's fields: an object's properties, or one field for anything else. */
function mediaFields(m: ApiMedia, style: FieldStyle): Node[] {
  const s = m.schema;
  if (!s) return [];
  if (s.properties && !s.variants) return [...(s.description ? prose(s.description) : []), ...fields(s, style)];
  if (s.variants) return [variantTabs(s.variants, style)];
  // The whole body as one field: the section's name is its anchor's prefix; the field has none.
  return [field(style.component === 'ParamField' ? 'body' : 'response', false, s, style, undefined, null, style.alias ?? null)];
}

function mediaBlock(media: ApiMedia[], style: FieldStyle): Node[] {
  if (media.length === 1 && media[0]) return [md(code(media[0].type)), ...mediaFields(media[0], style)];
  return [el('Tabs', {}, media.map((m) => el('Tab', { title: m.type }, mediaFields(m, style))))];
}

function bodyNodes(op: ApiOperation, words: TreeWords): Node[] {
  const rb = op.requestBody;
  if (!rb || rb.media.length === 0) return [];
  const title = op.method === 'WEBHOOK' ? 'payload' : 'body';
  return [heading(words.api[title], API_ROWS.en[title]), ...(rb.description ? prose(rb.description) : []), ...mediaBlock(rb.media, { component: 'ParamField', location: 'body', expandAll: op.expandAll, direction: 'request', words, alias: 'body' })];
}

/** Each status as a tab (one status: shown alone), with its description, media and headers. */
function responseBlock(responses: ApiOperation['responses'], expandAll: boolean, words: TreeWords, alias?: string): Node[] {
  const style: FieldStyle = { component: 'ResponseField', expandAll, direction: 'response', words, ...(alias ? { alias } : {}) };
  const one = (r: ApiOperation['responses'][number]): Node[] => [
    ...(r.description ? prose(r.description) : []),
    ...(r.media.length > 0 ? mediaBlock(r.media, style) : []),
    ...(r.headers.length > 0 ? [md(`**${words.api.headers}**`), ...r.headers.map((h) => field(h.name, false, h.schema, style, h.description, null, null))] : []),
  ];
  return responses.length === 1 && responses[0] ? [md(code(responses[0].status)), ...one(responses[0])] : [el('Tabs', {}, responses.map((r) => el('Tab', { title: r.status }, one(r))))];
}

function responseNodes(op: ApiOperation, words: TreeWords): Node[] {
  if (op.responses.length === 0) return [];
  return [heading(words.api.response, API_ROWS.en.response), ...responseBlock(op.responses, op.expandAll, words, 'response')];
}

/** `callbacks`, as Mintlify places them: after the body, one collapsible section per request. */
function callbackNodes(op: ApiOperation, words: TreeWords): Node[] {
  const callbacks = op.callbacks ?? [];
  if (callbacks.length === 0) return [];
  const out: Node[] = [heading(words.api.callbacks, API_ROWS.en.callbacks)];
  for (const cb of callbacks) {
    // The section's title names the method and expression; inside, what the request carries.
    const inner: Node[] = cb.deprecated ? [md(words.api.callbackDeprecated)] : [];
    if (cb.summary) inner.push(md(`**${cb.summary.replace(/[*_`[\]<>]/g, '\\$&')}**`));
    if (cb.description) inner.push(...prose(cb.description));
    const rb = cb.requestBody;
    if (rb && rb.media.length > 0) {
      inner.push(md(`**${words.api.body}**`), ...(rb.description ? prose(rb.description) : []), ...mediaBlock(rb.media, { component: 'ParamField', location: 'body', expandAll: op.expandAll, direction: 'request', words }));
    }
    if (cb.responses.length > 0) inner.push(md(`**${words.api.response}**`), ...responseBlock(cb.responses, op.expandAll, words));
    out.push(el('Accordion', { title: `${cb.name}: ${cb.method} ${cb.expression}` }, inner));
  }
  return out;
}

const fenceOf = (mediaType: string): string => (/json/i.test(mediaType) ? 'json' : /xml/i.test(mediaType) ? 'xml' : 'text');

/**
 * The examples column. `text` (when given) receives it as retrieval reads it: the request example
 * in its first language only (the others translate the same request), the responses' as they are.
 */
function exampleNodes(op: ApiOperation, known: Map<string, string>, fenced: CodeBlock, words: TreeWords, text?: ApiExamplePanel[]): Node[] {
  const out: Node[] = [];
  const samples = requestSamples(op);
  for (const s of samples) if (s.html !== undefined) known.set(`${s.fence}\n${s.code}`, s.html);
  const first = samples[0];
  if (first) {
    out.push(el('RequestExample', {}, samples.map((s) => fenced(s.fence, s.label, s.code))));
    text?.push({ label: words.api.requestExample, blocks: [{ title: first.label, code: first.code }] });
  } else if (op.method === 'WEBHOOK') {
    const m = exampleMedia(op.requestBody?.media);
    const value = m && (m.examples[0]?.value ?? (m.schema ? exampleOf(m.schema, { direction: 'request' }) : undefined));
    if (m && value !== undefined) {
      const code = exampleCode(value, m.type, 2, m.schema);
      out.push(el('RequestExample', {}, [fenced(fenceOf(m.type), words.api.payload, code)]));
      text?.push({ label: words.api.requestExample, blocks: [{ title: words.api.payload, code }] });
    }
  }
  const blocks: TextNode[] = [];
  const plain: { title: string; code: string }[] = [];
  for (const r of op.responses) {
    const m = exampleMedia(r.media);
    if (!m) continue;
    const examples = m.examples.length > 0 ? m.examples : m.schema ? [{ name: '', value: exampleOf(m.schema, { direction: 'response' }) }] : [];
    for (const ex of examples) {
      const body = exampleCode(ex.value, m.type, 2, m.schema);
      const title = ex.name && examples.length > 1 ? `${r.status} ${ex.name}` : r.status;
      blocks.push(fenced(fenceOf(m.type), title, body));
      plain.push({ title, code: body });
    }
  }
  if (blocks.length > 0) {
    out.push(el('ResponseExample', {}, blocks));
    text?.push({ label: words.api.responseExample, blocks: plain });
  }
  return out;
}

/**
 * Everything below the header and the page's own content: auth, parameters, body, responses,
 * examples. `known` receives request examples' markup already made (highlightCode's `withKnownHighlights`);
 * `examplesText` the examples column as plain code for retrieval (the tree ends with its panels).
 */
/** `examplesOp`: the operation the examples column is made from (public-view.ts with reader access on), else `op`. */
/** `words`: the page's language (PageState's apiWords and words.properties); English by default. */
export function operationTree(op: ApiOperation, withDescription: boolean, known: Map<string, string>, codeBlock: CodeBlock = fenced, examplesText?: ApiExamplePanel[], examplesOp: ApiOperation = op, words: TreeWords = ENGLISH): Node[] {
  return [
    ...(withDescription && op.description ? prose(op.description) : []),
    ...securityNodes(op.security, op.expandAll, words),
    ...parameterNodes(op.parameters, op.expandAll, words),
    ...bodyNodes(op, words),
    ...callbackNodes(op, words),
    ...responseNodes(op, words),
    ...exampleNodes(examplesOp, known, codeBlock, words, examplesText),
  ];
}

/** An `openapi-schema` page: the schema's description and its fields. */
export function schemaTree(page: ApiSchemaPage, words: TreeWords = ENGLISH): Node[] {
  const style: FieldStyle = { component: 'ResponseField', expandAll: page.expandAll, direction: 'response', words };
  const s = page.schema;
  const nodes: Node[] = [...(s.description ? prose(s.description) : [])];
  if (s.properties) nodes.push(...fields(s, style));
  else nodes.push(field(page.name, false, s, style));
  nodes.push(el('ResponseExample', {}, [fenced('json', page.name, JSON.stringify(exampleOf(s, { direction: 'response' }), null, 2))]));
  return nodes;
}

function messageNodes(m: ApiMessage, expandAll: boolean, level: string, words: TreeWords): Node[] {
  const style: FieldStyle = { component: 'ResponseField', expandAll, direction: 'response', words };
  const out: Node[] = [md(`${level} ${m.title}`)];
  if (m.description) out.push(...prose(m.description));
  if (m.contentType) out.push(md(code(m.contentType)));
  // An object's fields are listed; any other schema is one field named for what it is.
  // The label in the page's language; a lone field keeps its English name (its anchor, `param-payload`).
  const part = (key: 'headers' | 'payload', s: ApiSchema): Node[] => [md(`**${words.api[key]}**`), ...(s.properties || s.variants ? mediaFields({ type: m.contentType ?? 'application/json', schema: s, examples: [] }, style) : [field(key, false, s, style)])];
  if (m.headers) out.push(...part('headers', m.headers));
  if (m.payload) out.push(...part('payload', m.payload));
  return out;
}

/** An AsyncAPI channel page: description, parameters, then its messages by operation, examples on the side. */
export function channelTree(ch: ApiChannelPage, words: TreeWords = ENGLISH): Node[] {
  const nodes: Node[] = [];
  if (ch.description) nodes.push(...prose(ch.description));
  if (ch.parameters.length > 0) {
    nodes.push(heading(words.api.parameters, API_ROWS.en.parameters));
    const style: FieldStyle = { component: 'ParamField', location: 'path', expandAll: ch.expandAll, direction: 'request', words };
    for (const p of ch.parameters) nodes.push(field(p.name, true, p.example !== undefined ? { ...p.schema, example: p.example } : p.schema, style, p.description));
  }
  const examples: TextNode[] = [];
  const addExamples = (m: ApiMessage, label: string) => {
    const list = m.examples.length > 0 ? m.examples : m.payload ? [{ name: '', value: exampleOf(m.payload, { direction: 'response' }) }] : [];
    for (const ex of list) {
      const json = typeof ex.value !== 'string' || /json/.test(m.contentType ?? 'json');
      examples.push(fenced(json ? 'json' : 'text', ex.name && list.length > 1 ? `${label}: ${ex.name}` : label, json ? exampleCode(ex.value, m.contentType ?? 'application/json') : String(ex.value)));
    }
  };
  for (const action of ['send', 'receive'] as const) {
    const ops = ch.operations.filter((o) => o.action === action);
    if (ops.length === 0) continue;
    nodes.push(heading(words.api[action], API_ROWS.en[action]));
    for (const op of ops) {
      if (op.title && ops.length > 1) nodes.push(md(`**${op.title}**`));
      if (op.description) nodes.push(...prose(op.description));
      for (const m of op.messages) {
        nodes.push(...messageNodes(m, ch.expandAll, '###', words));
        addExamples(m, `${words.api[action]}: ${m.title}`);
      }
    }
  }
  if (ch.messages.length > 0) {
    nodes.push(heading(words.api.messages, API_ROWS.en.messages));
    for (const m of ch.messages) {
      nodes.push(...messageNodes(m, ch.expandAll, '###', words));
      addExamples(m, m.title);
    }
  }
  if (examples.length > 0) nodes.push(el('ResponseExample', {}, examples));
  return nodes;
}
