import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareSandbox } from '../../../renderer/islands/sandbox.js';
import { codes, makeCtx, render, renderError } from './helpers.js';

describe('snippets', () => {
  // Components that are code are pre-rendered in the sandbox, which render workers load up front.
  beforeAll(() => prepareSandbox());

  it('imports a snippet by absolute path and fills {placeholders} from props', () => {
    const page = render("import Greeting from '/snippets/greeting.mdx';\n\n<Greeting word=\"friend\" product=\"Acme\" />\n");
    expect(page.html).toContain('<p>Hello <strong>friend</strong>, welcome to Acme!</p>');
    expect(page.html).not.toContain('import');
    expect(page.warnings).toEqual([]);
  });

  it('takes the items of Steps, Tabs and Tree from snippets and arrow components among their children', () => {
    const page = render(
      [
        "import Install from '/snippets/step-install.mdx';",
        "import More from '/snippets/more-steps.mdx';",
        "import { NpmTab } from '/snippets/tabs.jsx';",
        '',
        '<Steps>',
        '<Step title="Sign up">Make an account.</Step>',
        '<Install title="Install the alpha CLI" tool="alpha" />',
        '<More />',
        '</Steps>',
        '',
        '<Tabs>',
        '<NpmTab pkg="widgets" />',
        '<Tab title="yarn">Use yarn.</Tab>',
        '</Tabs>',
      ].join('\n'),
    );
    const titles = [...page.html.matchAll(/<p class="c-step__title">(?:<a[^>]*><\/a>)?([^<]*)<\/p>/g)].map((m) => m[1]);
    expect(titles).toEqual(['Sign up', 'Install the alpha CLI', 'Install the beta CLI', 'Log in']);
    expect(page.html).toContain('Run the installer for <strong>alpha</strong>.');
    expect(page.html).toContain('Run the installer for <strong>beta</strong>.');
    expect([...page.html.matchAll(/class="c-step__marker" aria-hidden="true">(\d)</g)].map((m) => m[1])).toEqual(['1', '2', '3', '4']);
    expect(page.html).toContain('Install <code>widgets</code> with npm.');
    expect(page.html).toMatch(/>npm<[\s\S]*>yarn</);
    expect(page.warnings).toEqual([]);
  });

  it('takes the items of a wrapper component\'s <Steps>{children}</Steps> from its caller', () => {
    const page = render(
      ['export const MySteps = ({ children }) => <Steps>{children}</Steps>;', '', '<MySteps>', '  <Step title="One">First.</Step>', '  <Step title="Two">Second.</Step>', '</MySteps>'].join('\n'),
    );
    const titles = [...page.html.matchAll(/<p class="c-step__title">(?:<a[^>]*><\/a>)?([^<]*)<\/p>/g)].map((m) => m[1]);
    expect(titles).toEqual(['One', 'Two']);
    expect(page.html).toContain('First.');
  });

  it('runs expressions that are code (.map, &&, arithmetic, method calls) as islands, pre-rendered', () => {
    const page = render(
      [
        'export const features = [',
        '  { title: "Fast", href: "/guides/intro", body: "Very fast." },',
        '  { title: "Safe", href: "/guides/setup", body: "Very safe." },',
        '];',
        'export const beta = true;',
        '',
        '<CardGroup cols={2}>',
        '  {features.map((f) => (',
        '    <Card key={f.title} title={f.title} href={f.href}>{f.body}</Card>',
        '  ))}',
        '</CardGroup>',
        '',
        '{beta && <Note>Beta is on.</Note>}',
        '',
        'Two and two make {2 + 2}.',
        '',
        "import List from '/snippets/list.mdx';",
        '',
        '<List items={["a", "b"]} />',
      ].join('\n'),
    );
    expect(page.warnings).toEqual([]);
    expect(page.html).not.toContain('c-expression');
    const cards = [...page.html.matchAll(/<a href="([^"]+)"[^>]*>([^<]+)<\/a>/g)].map((m) => [m[1], m[2]]);
    expect(cards).toEqual(expect.arrayContaining([['/guides/intro/', 'Fast'], ['/guides/setup/', 'Safe']]));
    expect(page.html).toContain('Very safe.');
    // Flow expressions are blocks (never inside a <p>); one within a sentence stays inline.
    expect(page.html).not.toMatch(/<p>\s*<div class="c-island"/);
    expect(page.html).toMatch(/<div class="c-island"[^>]*data-island="guides\/page\.mdx#expr-[0-9a-f]{8}#__mint_expr"[^>]*><div role="note"[^>]*class="c-callout c-callout--note"/);
    expect(page.html).toMatch(/<p>Two and two make <span class="c-island"[^>]*>4<\/span>\.<\/p>/);
    expect(page.html).toMatch(/You picked 2 items: <span class="c-island"[^>]*>a, b<\/span>\./);
    expect(page.islands?.scripts.length).toBeGreaterThan(1);
  });

  it('computes attributes that are code in the sandbox, and renders dangerouslySetInnerHTML under the HTML policy', () => {
    const page = render(
      [
        "import { strings } from '/snippets/strings.mdx';",
        '',
        '<Steps>',
        '  <Step title={strings.signUp}>',
        '    <div dangerouslySetInnerHTML={{ __html: strings.keyHelp }} />',
        '  </Step>',
        '  <Step title={strings.install("the CLI")}>Run it.</Step>',
        '  <Step title={strings.missing.name}>No title.</Step>',
        '</Steps>',
        '',
        '<p dangerouslySetInnerHTML={{ __html: "Plain <em>literal</em> {braces}" }} />',
      ].join('\n'),
    );
    const titles = [...page.html.matchAll(/<p class="c-step__title">(?:<a[^>]*><\/a>)?([^<]*)<\/p>/g)].map((m) => m[1]);
    expect(titles).toEqual(['Create an account', 'Install the CLI']);
    expect(page.html).toContain('<div>Open <a href="/guides/setup/">the settings</a> and copy a <strong>key</strong>.<img src="x" loading="lazy"></div>');
    expect(page.html).toContain('<p>Plain <em>literal</em> {braces}</p>');
    expect(page.warnings).toContainEqual(expect.objectContaining({ code: 'unsafe-html', message: expect.stringContaining('onerror') }));
  });

  it('runs a container whose items come from code (Tabs, Steps) as one island, items included', () => {
    const page = render(
      [
        'export const langs = [{ name: "Python", cmd: "pip install acme" }, { name: "Node", cmd: "npm i acme" }];',
        'export const advanced = true;',
        '',
        '<Tabs defaultTabIndex="0">',
        '  {langs.map((l) => (',
        '    <Tab key={l.name} title={l.name}>Run {l.cmd}.</Tab>',
        '  ))}',
        '</Tabs>',
        '',
        '<Steps>',
        '  {advanced && <Step title="Tune it">Set the knobs.</Step>}',
        '</Steps>',
        '',
        '<Tabs>{/* none yet */}</Tabs>',
      ].join('\n'),
    );
    expect(page.warnings).toEqual([]);
    // The runtime's Tabs and Steps write the static markup: a tab bar with both tabs, a numbered step.
    expect([...page.html.matchAll(/<button [^>]*role="tab"[^>]*>([^<]*)<\/button>/g)].map((m) => m[1])).toEqual(['Python', 'Node']);
    expect(page.html).toMatch(/<div role="tabpanel"[^>]*hidden=""[^>]*>Run npm i acme\.<\/div>/);
    expect(page.html).toMatch(/<div class="c-island"[^>]*data-island="[^"]*#__mint_expr"[^>]*><div data-tabs class="c-tabs c-tabs--content">/);
    expect(page.html).toMatch(/<ol class="c-steps"><li id="tune-it" class="c-step">[^]*Tune it[^]*Set the knobs\./);
    // Words are in the page's text once (the island's slots repeat its first paint).
    expect(page.text.match(/Set the knobs/g)).toHaveLength(1);
  });

  it('shows an expression as written, with a warning, when it cannot be pre-rendered', () => {
    // A name nothing defines (`user` is Mintlify's reader now: personalization.test.ts).
    const page = render("Hello {member.name ?? 'reader'}.\n");
    expect(page.html).toContain('<code class="c-expression">{member.name ?? &#39;reader&#39;}</code>');
    expect(page.warnings).toEqual([expect.objectContaining({ code: 'unsupported-expression', line: 1 })]);
    expect(page.islands).toBeUndefined();
  });

  it('imports relative to the page', () => {
    const page = render("import Inner from '../snippets/nested/inner.mdx';\n\n<Inner message=\"hi\" />", { file: 'guides/page.mdx' });
    expect(page.html).toContain('Inner snippet says hi.');
  });

  it('imports exported constants, including nested fields', () => {
    const page = render(
      "import { version, plans as p } from '/snippets/greeting.mdx';\n\nVersion {version}, plan {p.pro.name} with {p.pro.seats} seats, first {p.list[0]}.",
    );
    expect(page.html).toContain('Version 2.4.1, plan Pro plan with 5 seats, first a.');
  });

  it('renders the legacy <Snippet file> from snippets/ or _snippets/', () => {
    const page = render('<Snippet file="legacy.mdx" />\n\n<Snippet file="underscored.mdx" />');
    expect(page.html).toContain('Legacy snippet body with a <a href="/guides/intro/">link</a>.');
    expect(page.html).toContain('From the underscore folder.');
  });

  it('renders simple arrow-function components from a .jsx snippet with their props', () => {
    const page = render("import { Banner } from '/snippets/banner.jsx';\n\n<Banner title=\"Widgets\" />\n");
    expect(page.html).toMatch(/c-callout--note.*<strong>Widgets<\/strong> is documented <a href="\/guides\/intro\/">here<\/a>\s?\./s);
  });

  it('makes components whose code must run islands, pre-rendered in the sandbox (see test/renderer/islands)', () => {
    const page = render("import { Computed } from '/snippets/banner.jsx';\n\n<Computed />\n");
    expect(page.html).toMatch(/<div class="c-island" style="display:contents" data-island="snippets\/banner.jsx#Computed" data-props="\{\}"><div>\d{13}<\/div><\/div>/);
    // The runtime, the icons the module's code can show (its Banner's <Note>), the module.
    expect(page.islands?.scripts).toEqual([
      expect.stringMatching(/^\/_static\/islands\/runtime\./),
      expect.stringMatching(/^\/_static\/islands\/icons\./),
      expect.stringMatching(/^\/_static\/islands\/snippets-banner\./),
    ]);
    expect(page.warnings).toEqual([]);
  });

  it('warns on an import of a missing file, naming the page, the line and the path; its component renders its children', () => {
    const page = render("Intro\n\nimport Gone from '/snippets/nope.mdx';\n\n<Gone>\nStill **here**.\n</Gone>", { file: 'guides/missing.mdx' });
    expect(page.warnings).toContainEqual({ code: 'missing-import', message: expect.stringContaining('/snippets/nope.mdx was not found'), file: 'guides/missing.mdx', line: 3 });
    expect(page.warnings).toContainEqual(expect.objectContaining({ code: 'unknown-component', file: 'guides/missing.mdx', line: 5 }));
    expect(page.html).toContain('<p>Intro</p>');
    expect(page.html).toContain('Still <strong>here</strong>.');
  });

  it('warns for a legacy <Snippet file> that is missing and shows nothing (it was a runtime lookup)', () => {
    const page = render('text\n\n<Snippet file="nope.mdx" />', { file: 'a.mdx' });
    expect(page.warnings).toEqual([
      { code: 'missing-snippet', message: expect.stringContaining('snippets/nope.mdx, _snippets/nope.mdx'), file: 'a.mdx', line: 3 },
    ]);
    expect(page.html).toBe('<p>text</p>\n');
  });

  it('names the snippet file when a snippet itself imports something missing', () => {
    const page = render("import B from '/snippets/broken-import.mdx';\n\n<B />");
    expect(page.warnings).toEqual([{ code: 'missing-import', message: expect.stringContaining('does-not-exist.mdx'), file: 'snippets/broken-import.mdx', line: 1 }]);
    expect(page.html).toContain('Text.');
  });

  it('warns on snippet paths that leave the repository and reads nothing there', () => {
    const page = render("import X from '../../../etc/passwd.mdx';\n\n<X>kept</X>", { file: 'guides/page.mdx' });
    expect(page.warnings).toContainEqual({ code: 'missing-import', message: expect.stringMatching(/outside the repository/), file: 'guides/page.mdx', line: 1 });
    expect(page.html).toContain('kept');
    const legacy = render('<Snippet file="../../secret.mdx" />');
    expect(legacy.warnings).toEqual([expect.objectContaining({ code: 'missing-snippet', message: expect.stringMatching(/outside the repository/) })]);
  });

  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'page-snippets-'));
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('does not follow a symlink inside the repository that points outside it', () => {
    const repo = path.join(tmp, 'repo');
    fs.mkdirSync(path.join(repo, 'snippets'), { recursive: true });
    fs.writeFileSync(path.join(tmp, 'outside.mdx'), 'secret');
    fs.symlinkSync(path.join(tmp, 'outside.mdx'), path.join(repo, 'snippets', 'link.mdx'));
    const page = render("import L from '/snippets/link.mdx';\n\n<L />", { ctx: makeCtx({ repoRoot: repo }) });
    expect(page.html).not.toContain('secret');
    expect(page.warnings).toContainEqual(expect.objectContaining({ code: 'missing-import', message: expect.stringMatching(/outside the repository/) }));
  });

  it('stops a snippet that includes itself', () => {
    expect(renderError("import S from '/snippets/self.mdx';\n\n<S />").message).toMatch(/cycle|deep/);
  });

  it('sees a snippet change on disk (cache keyed by size and mtime)', () => {
    const repo = path.join(tmp, 'changing');
    fs.mkdirSync(path.join(repo, 'snippets'), { recursive: true });
    const file = path.join(repo, 'snippets', 's.mdx');
    fs.writeFileSync(file, 'First version.');
    const ctx = makeCtx({ repoRoot: repo });
    const source = "import S from '/snippets/s.mdx';\n\n<S />";
    expect(render(source, { ctx }).html).toContain('First version.');
    fs.writeFileSync(file, 'Second, longer version.');
    fs.utimesSync(file, new Date(), new Date(Date.now() + 5000));
    expect(render(source, { ctx }).html).toContain('Second, longer version.');
  });
});

describe('snippet children', () => {
  it('puts the caller content where the snippet says {children}', () => {
    const page = render("import Wrapper from '/snippets/wrapper.mdx';\n\n<Wrapper author=\"Ada\">\nThis is **wrapped**.\n</Wrapper>\n");
    expect(page.html).toMatch(/c-callout--note.*<p>This is <strong>wrapped<\/strong>.<\/p>/s);
    expect(page.html).toContain('Signed, Ada.');
  });
});

describe('components defined in the page', () => {
  it('renders a simple arrow component exported by the page itself', () => {
    const page = render('export const Hi = ({ name, mark = "!" }) => <strong>Hi {name}{mark}</strong>;\n\n<Hi name="Bo" /> and <Hi name="Al" mark="?" />');
    expect(page.html).toContain('<p><strong>Hi Bo!</strong> and <strong>Hi Al?</strong></p>');
    expect(page.warnings).toEqual([]);
  });
});
