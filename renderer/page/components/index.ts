/** Every built-in component by its MDX name. Anything not here (and not imported) is unknown. */
import type { ComponentRenderer } from './call.js';
import { calloutComponents } from './callouts.js';
import { colorComponents } from './color.js';
import { cardComponents } from './cards.js';
import { disclosureComponents } from './disclosure.js';
import { fieldComponents } from './fields.js';
import { inlineComponents } from './inline.js';
import { mediaComponents } from './media.js';
import { miscComponents } from './misc.js';
import { showcaseComponents } from './showcase.js';
import { stepComponents } from './steps.js';
import { tabComponents } from './tabs.js';
import { treeComponents } from './trees.js';

export const BUILTIN_COMPONENTS: Readonly<Record<string, ComponentRenderer>> = Object.freeze({
  ...calloutComponents,
  ...cardComponents,
  ...stepComponents,
  ...tabComponents,
  ...disclosureComponents,
  ...fieldComponents,
  ...mediaComponents,
  ...inlineComponents,
  ...miscComponents,
  ...treeComponents,
  ...colorComponents,
  ...showcaseComponents,
});
