/** Checks on rendered HTML, parsed by a real HTML parser (htmlparser2), shared by the renderer tests. */
import { parseDocument } from 'htmlparser2';
import type { ChildNode, Element } from 'domhandler';

// ---- what must never be in the output, whatever the input --------------------------------------

const FORBIDDEN_TAGS = new Set(['script', 'style', 'object', 'embed', 'link', 'meta', 'base', 'form', 'textarea', 'frame', 'frameset', 'applet', 'foreignobject', 'button']);
const FORBIDDEN_ATTRS = new Set(['srcdoc', 'formaction', 'action', 'xlink:href', 'autofocus', 'http-equiv', 'httpequiv', 'background']);
const URL_ATTRS = new Set(['href', 'src', 'poster', 'srcset', 'data', 'action', 'formaction', 'xlink:href', 'background', 'cite']);
const SAFE_DATA_IMAGE = /^data:image\/(?:png|gif|jpe?g|webp|avif|bmp)[;,]/;

function urlProblem(tag: string, value: string): string | undefined {
  const url = value.replace(/[\u0000-\u0020\u007f-\u009f]/g, '').toLowerCase();
  if (/^[\\/][\\/]/.test(url)) return 'protocol-relative';
  const scheme = /^([a-z][a-z0-9+.-]*):/.exec(url)?.[1];
  if (scheme === undefined || ['http', 'https', 'mailto', 'tel'].includes(scheme)) return undefined;
  if (scheme === 'data' && (tag === 'img' || tag === 'source') && SAFE_DATA_IMAGE.test(url)) return undefined;
  return `scheme ${scheme}`;
}

export function elements(nodes: ChildNode[], out: Element[] = []): Element[] {
  for (const n of nodes) {
    if (n.type === 'tag' || n.type === 'script' || n.type === 'style') {
      out.push(n as Element);
      elements((n as Element).children, out);
    }
  }
  return out;
}

/** Every problem in a fragment of page HTML (a component's own trusted markup included). */
export function htmlProblems(html: string, trusted: (el: Element) => boolean = () => false): string[] {
  const problems: string[] = [];
  for (const el of elements(parseDocument(html, { lowerCaseAttributeNames: true, lowerCaseTags: true }).children)) {
    if (trusted(el)) continue;
    if (FORBIDDEN_TAGS.has(el.name)) problems.push(`<${el.name}>`);
    if (el.name === 'iframe' && !el.attribs['src']) problems.push('<iframe> without src');
    for (const [name, value] of Object.entries(el.attribs)) {
      if (name.startsWith('on')) problems.push(`<${el.name} ${name}>`);
      if (FORBIDDEN_ATTRS.has(name)) problems.push(`<${el.name} ${name}>`);
      if (!/^[a-z_:][a-z0-9_:.-]*$/.test(name)) problems.push(`<${el.name}> odd attribute name ${JSON.stringify(name)}`);
      if (URL_ATTRS.has(name)) {
        const values = name === 'srcset' ? value.split(',').map((c) => c.trim().split(/\s+/)[0] ?? '') : [value];
        for (const v of values) {
          const p = urlProblem(el.name, v);
          if (p) problems.push(`<${el.name} ${name}="${v}"> ${p}`);
        }
      }
    }
  }
  return problems;
}

