/**
 * A free Font Awesome icon to draw for a Pro-only name. Hosted Mintlify serves Font Awesome Pro to
 * every site, so real repositories name Pro icons often (mem0-docs 57 times, livepeer-docs 40);
 * only the free set can be bundled here. Most Pro names are a free icon with a word added
 * (`rocket-launch`, `message-bot`, `book-open-cover`) or wrapped in a shape (`square-code`,
 * `rectangle-terminal`), and a few single words have a free icon of the same meaning under another
 * name (`megaphone` is `bullhorn`). Anything else keeps the placeholder: a wrong picture would say
 * more than an empty box.
 */

/** Pro words whose free icon has another name. Chosen by hand from the free set: same object, same meaning. */
const SAME_MEANING: Readonly<Record<string, string>> = {
  sparkles: 'wand-magic-sparkles',
  waveform: 'wave-square',
  megaphone: 'bullhorn',
  browser: 'window-maximize',
  window: 'window-maximize',
  text: 'font',
  grid: 'table-cells',
  camcorder: 'video',
  monitor: 'desktop',
  bird: 'dove',
  bot: 'robot',
  stars: 'star',
  'brackets-curly': 'code',
};

/**
 * First words that wrap or qualify the icon after them: shapes drawn around it (`square-code`,
 * `rectangle-terminal`) and arrows added to it (`arrows-repeat` is `repeat`).
 */
const FRAMES = new Set(['square', 'circle', 'rectangle', 'hexagon', 'octagon', 'diamond', 'arrow', 'arrows']);

/** Words that name a different icon when left alone: `arrows` is the four-way move icon. */
const NOT_ALONE = new Set(['arrow', 'arrows']);

/**
 * Free names to try for a Pro name, best first: the name without its frame, then the name with
 * trailing words dropped (`rocket-launch` → `rocket`), each also through SAME_MEANING. The caller
 * keeps the first one the free set has.
 */
export function substituteCandidates(name: string): string[] {
  const words = name.split('-');
  const stems: string[] = [];
  if (words.length > 1 && FRAMES.has(words[0] as string)) stems.push(words.slice(1).join('-'));
  for (let keep = words.length - 1; keep >= 1; keep--) stems.push(words.slice(0, keep).join('-'));
  const out: string[] = [];
  const add = (candidate: string | undefined): void => {
    if (candidate && candidate !== name && !out.includes(candidate)) out.push(candidate);
  };
  add(SAME_MEANING[name]);
  for (const stem of stems) {
    if (NOT_ALONE.has(stem)) continue;
    add(stem);
    add(SAME_MEANING[stem]);
  }
  return out;
}
