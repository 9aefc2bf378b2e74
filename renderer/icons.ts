/** Kept for importers of the old single-file module; the icon code lives in renderer/icons/. */
export { iconSvg, renderIcon } from './icons/index.js';
