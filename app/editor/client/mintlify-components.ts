/**
 * The component names the renderer knows (renderer/page/components/index.ts, BUILTIN_COMPONENTS),
 * copied here because that registry imports Node-only code; test/editor/components-list.test.ts
 * keeps the two equal. `snippet` is what a completion inserts (`${}` marks the cursor's fields).
 */
export const COMPONENT_NAMES: readonly string[] = [
  'Accordion', 'AccordionGroup', 'Badge', 'Callout', 'Card', 'CardGroup', 'Check', 'CodeGroup', 'Color', 'Color.Item',
  'Color.Row', 'Column', 'Columns', 'Danger', 'Expandable', 'FileTree', 'Frame', 'GitHub.Repo', 'Icon', 'Info', 'Latex',
  'Link', 'Mermaid', 'Note', 'Panel', 'ParamField', 'Prompt', 'RequestExample', 'ResponseExample', 'ResponseField',
  'Step', 'Steps', 'Tab', 'Tabs', 'Tile', 'Tip', 'Tooltip', 'Tree', 'Tree.File', 'Tree.Folder', 'Update', 'View',
  'Visibility', 'Warning',
];

/** The common components' usual attributes, for a fuller snippet than `<Name>…</Name>`. */
export const COMPONENT_SNIPPETS: Readonly<Record<string, string>> = {
  Card: '<Card title="${title}" icon="${icon}" href="${href}">\n  ${}\n</Card>',
  CardGroup: '<CardGroup cols={${2}}>\n  ${}\n</CardGroup>',
  Columns: '<Columns cols={${2}}>\n  ${}\n</Columns>',
  Tabs: '<Tabs>\n  <Tab title="${First}">\n    ${}\n  </Tab>\n</Tabs>',
  Tab: '<Tab title="${title}">\n  ${}\n</Tab>',
  Steps: '<Steps>\n  <Step title="${First step}">\n    ${}\n  </Step>\n</Steps>',
  Step: '<Step title="${title}">\n  ${}\n</Step>',
  Accordion: '<Accordion title="${title}">\n  ${}\n</Accordion>',
  AccordionGroup: '<AccordionGroup>\n  <Accordion title="${title}">\n    ${}\n  </Accordion>\n</AccordionGroup>',
  Expandable: '<Expandable title="${title}">\n  ${}\n</Expandable>',
  ParamField: '<ParamField path="${name}" type="${string}" required>\n  ${}\n</ParamField>',
  ResponseField: '<ResponseField name="${name}" type="${string}">\n  ${}\n</ResponseField>',
  Icon: '<Icon icon="${icon}" />',
  Badge: '<Badge>${}</Badge>',
  Tooltip: '<Tooltip tip="${tip}">${}</Tooltip>',
  Frame: '<Frame caption="${caption}">\n  ${}\n</Frame>',
  Update: '<Update label="${label}" description="${description}">\n  ${}\n</Update>',
  Callout: '<Callout icon="${icon}">\n  ${}\n</Callout>',
};

/** Frontmatter fields Mintlify pages use (docs: pages.mdx, navigation, API pages, SEO). */
export const FRONTMATTER_FIELDS: readonly { name: string; info: string }[] = [
  { name: 'title', info: 'Page title (navigation and browser tab)' },
  { name: 'description', info: 'Summary under the title and in search results' },
  { name: 'sidebarTitle', info: 'Shorter title in the sidebar' },
  { name: 'icon', info: 'Icon beside the title in the sidebar' },
  { name: 'iconType', info: 'Font Awesome icon style' },
  { name: 'tag', info: 'Label beside the title in the sidebar' },
  { name: 'mode', info: 'Layout: default, wide, custom, frame, center' },
  { name: 'keywords', info: 'Extra search terms' },
  { name: 'hidden', info: 'Leave the page out of the navigation' },
  { name: 'noindex', info: 'Keep search engines away' },
  { name: 'url', info: 'External link in the navigation' },
  { name: 'api', info: 'API playground endpoint, "METHOD /path"' },
  { name: 'openapi', info: 'OpenAPI operation, "METHOD /path"' },
  { name: 'public', info: 'Visible without sign-in (reader access)' },
  { name: 'groups', info: 'Reader groups allowed to see the page' },
  { name: 'og:title', info: 'Social card title' },
  { name: 'og:description', info: 'Social card description' },
  { name: 'og:image', info: 'Social card image' },
  { name: 'canonical', info: 'Canonical URL' },
];
