/**
 * Lowercase tag names that are real HTML/SVG/MathML elements. A lowercase `<word>` that is not one
 * of these (`<name>`, `<your-key>` in prose) is shown as text instead of being taken for a tag.
 */
export const HTML_TAGS: ReadonlySet<string> = new Set(
  (
    'a abbr address area article aside audio b bdi bdo blockquote br button caption cite code col colgroup ' +
    'data dd del details dfn dialog div dl dt em embed fieldset figcaption figure footer form h1 h2 h3 h4 h5 h6 ' +
    'header hgroup hr i iframe img input ins kbd label legend li link main map mark menu meter nav noscript object ' +
    'ol optgroup option output p param picture pre progress q rp rt ruby s samp script section select slot small ' +
    'source span strong style sub summary sup table tbody td template textarea tfoot th thead time tr track u ul ' +
    'var video wbr center font big tt strike ' +
    // SVG (icons pasted inline) and MathML
    'svg g path circle ellipse line polyline polygon rect text tspan defs lineargradient radialgradient stop ' +
    'clippath mask use symbol title desc foreignobject pattern filter marker ' +
    'math mi mn mo ms mtext mrow msup msub msubsup mfrac msqrt mroot mtable mtr mtd semantics annotation'
  ).split(' '),
);

/** Elements that never have a closing tag in HTML; MDX wants `<br />` but pages often say `<br>`. */
export const VOID_TAGS: ReadonlySet<string> = new Set(
  'area base br col embed hr img input link meta param source track wbr'.split(' '),
);
