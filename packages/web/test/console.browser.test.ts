import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  chromiumAvailable,
  describeViolations,
  isContentSecurityPolicyViolation,
  launchChromium,
  seriousAccessibilityViolations,
} from './browser/chromium.js';
import { buildConsole, type RunningPlatform, startPlatform } from './browser/platform-server.js';

/** Where each step's screenshot goes (git-ignored; README images are copied from here by hand). */
const screenshotDirectory = fileURLToPath(new URL('../test-results/console/', import.meta.url));
const validSkill = '---\nname: notes-helper\ndescription: Use when the user asks about notes.\n---\nRead the notes first.\n';

/**
 * The console end to end in real Chromium against the real `agentloom serve` (fresh SQLite data
 * directory, the console built from the current sources): sign in, create a space, add a model
 * connection, a prompt, an HTTP tool and a skill, create and edit agents of both modes, meet a
 * conflicting save, publish and see the release; members and API keys; a viewer cannot edit.
 * Every page passes axe-core with no serious or critical violation.
 */
describe.runIf(chromiumAvailable())('the web console in Chromium', { timeout: 120_000 }, () => {
  let platform: RunningPlatform;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let removeBuild: () => void = () => {};
  let spaceUrl = '';
  let agentUrl = '';
  /** Uncaught errors of any page: the console must not throw, whatever the user does. */
  const pageErrors: string[] = [];
  /** What the Content-Security-Policy refused on any page: the built console must need nothing it forbids (P-15.4). */
  const policyViolations: string[] = [];

  beforeAll(async () => {
    mkdirSync(screenshotDirectory, { recursive: true });
    const built = await buildConsole();
    removeBuild = built.remove;
    platform = await startPlatform(built.directory);
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    context.setDefaultTimeout(20_000);
    context.on('page', (opened) => {
      opened.on('pageerror', (error) => pageErrors.push(error.message));
      opened.on('console', (message) => {
        if (isContentSecurityPolicyViolation(message.text()))
          policyViolations.push(`${opened.url()} ${JSON.stringify(message.location())} ${message.text()}`);
      });
    });
    page = await context.newPage();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
    removeBuild();
  });

  /** Saves a screenshot of the page and checks it with axe-core. */
  async function checkPage(name: string, target: Page = page): Promise<void> {
    await target.screenshot({ path: `${screenshotDirectory}${name}.png`, fullPage: true });
    const violations = await seriousAccessibilityViolations(target);
    expect(violations, describeViolations(violations)).toEqual([]);
  }

  /** Calls the API from inside the page, as the console would (cookie session + CSRF token). */
  function apiFromPage<Result>(
    target: Page,
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: Result }> {
    return target.evaluate(
      async ({ method, path, body }) => {
        const headers: Record<string, string> = { 'content-type': 'application/json' };
        const token = localStorage.getItem('agentloom.csrf-token');
        if (token) headers['x-csrf-token'] = token;
        const response = await fetch(`/api/v1${path}`, {
          method,
          headers,
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        return { status: response.status, body: await response.json() };
      },
      { method, path, body },
    );
  }

  it('refuses a wrong password with a visible message, then signs in', async () => {
    const first = await page.goto(`${platform.url}/spaces`);
    const headers = first?.headers() ?? {};
    expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(headers['referrer-policy']).toBe('no-referrer');
    await page.waitForURL(/\/sign-in/);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByText('Enter the email address of your account.').isVisible()).resolves.toBe(true);
    await expect(page.getByLabel('Email').evaluate((element) => element === document.activeElement)).resolves.toBe(true);
    await page.getByLabel('Email').fill(platform.adminEmail);
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'invalid-credentials' }).waitFor();
    await checkPage('01-sign-in-refused');
    await page.getByLabel('Password').fill(platform.adminPassword);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Spaces' }).waitFor();
    await checkPage('02-spaces');
  });

  it('creates a space (an empty name is refused at its field)', async () => {
    await page.getByRole('button', { name: 'Create space' }).click();
    await page.getByText('Give the space a name.').waitFor();
    await page.getByLabel('Space name').fill('Research');
    await page.getByRole('button', { name: 'Create space' }).click();
    await page.getByRole('heading', { level: 1, name: 'Agents' }).waitFor();
    spaceUrl = page.url().replace(/\/agents$/, '');
    expect(spaceUrl).toMatch(/\/spaces\/[^/]+$/);
    await checkPage('03-agents-empty');
  });

  it('adds an offline model connection, with bad input shown at the field, and test-calls it', async () => {
    await page.getByRole('link', { name: 'Model connections' }).click();
    await page.getByRole('heading', { level: 1, name: 'Model connections' }).waitFor();
    await page.getByLabel('Name', { exact: true }).fill('Offline');
    await page.getByLabel('Base URL (optional)').fill('not a url');
    await page.getByRole('button', { name: 'Create connection' }).click();
    await page.getByText('Enter a full http(s) URL.').waitFor();
    await page.getByText('List at least one model id.').waitFor();
    await page.getByLabel('Base URL (optional)').fill('');
    await page.getByLabel('Models (comma-separated ids)').fill('offline-demo-1');
    await page.getByLabel('Demo fallback reply').fill('Offline answer.');
    await page.getByRole('button', { name: 'Create connection' }).click();
    await page.getByRole('heading', { level: 2, name: /Offline/ }).waitFor();
    await page.getByRole('button', { name: 'Test call' }).click();
    await page.getByText('The model answered: Offline answer.').waitFor();
    await checkPage('04-connections');
  });

  it('creates a shared prompt and an HTTP tool (bad JSON Schema refused at the field)', async () => {
    await page.getByRole('link', { name: 'Prompts' }).click();
    await page.getByRole('heading', { level: 1, name: 'Prompts' }).waitFor();
    await page.getByLabel('Name', { exact: true }).fill('researcher');
    await page.getByLabel('Text', { exact: true }).fill('You research {{topic}} carefully.');
    await page.getByRole('button', { name: 'Create prompt' }).click();
    await page.getByRole('button', { name: 'researcher' }).click();
    await expect.poll(() => page.getByLabel('Prompt text').inputValue()).toBe('You research {{topic}} carefully.');
    await checkPage('05-prompts');

    await page.getByRole('link', { name: 'HTTP tools' }).click();
    await page.getByRole('heading', { level: 1, name: 'HTTP tools' }).waitFor();
    await page.getByLabel('Tool name').fill('weather');
    await page.getByLabel('Description').fill('Current weather of a city.');
    await page.getByLabel('URL').fill('https://weather.example/api');
    await page.getByLabel('Parameters (JSON Schema)').fill('{"type": "string"}');
    await page.getByRole('button', { name: 'Create tool' }).click();
    await page.getByText('The parameters must be a JSON Schema with "type": "object".').waitFor();
    await page.getByLabel('Parameters (JSON Schema)').fill('{"type": "object", "properties": {"city": {"type": "string"}}}');
    await page.getByRole('button', { name: 'Create tool' }).click();
    await page.getByRole('cell', { name: 'weather', exact: true }).waitFor();
    await checkPage('06-http-tools');
  });

  it('refuses an invalid skill package per file without leaving an empty entry, then uploads a valid one', async () => {
    await page.getByRole('link', { name: 'Skills' }).click();
    await page.getByRole('heading', { level: 1, name: 'Skills' }).waitFor();
    await page.getByLabel('Skill name').fill('notes-helper');
    await page
      .getByLabel("Package (.zip or the folder's files)")
      .setInputFiles([{ name: 'SKILL.md', mimeType: 'text/markdown', buffer: Buffer.from('---\nname: Wrong_Name\n---\n') }]);
    await page.getByRole('button', { name: 'Upload skill' }).click();
    await page.getByRole('alert').filter({ hasText: 'The upload was refused.' }).waitFor();
    await page.getByRole('list', { name: 'Problems per file' }).waitFor();
    await page.getByRole('cell', { name: 'No skill yet.' }).waitFor();
    const spaceId = spaceUrl.split('/').at(-1);
    const listed = await apiFromPage<{ resources: unknown[] }>(page, 'GET', `/spaces/${spaceId}/resources?type=skill`);
    expect(listed.body.resources).toEqual([]);
    await checkPage('07-skill-refused');

    await page
      .getByLabel("Package (.zip or the folder's files)")
      .setInputFiles([{ name: 'SKILL.md', mimeType: 'text/markdown', buffer: Buffer.from(validSkill) }]);
    await page.getByRole('button', { name: 'Upload skill' }).click();
    await page.getByRole('cell', { name: 'v1', exact: true }).waitFor();
  });

  it('adds a member and shows a new API key once', async () => {
    const created = await apiFromPage<unknown>(page, 'POST', '/users', {
      email: 'viewer@example.com',
      displayName: 'Vera Viewer',
      password: 'viewer-password-1234',
    });
    expect(created.status).toBe(201);
    await page.getByRole('link', { name: 'Members' }).click();
    await page.getByRole('heading', { level: 1, name: 'Members' }).waitFor();
    await page.getByLabel('Email', { exact: true }).fill('nobody@example.com');
    await page.getByRole('button', { name: 'Add member' }).click();
    await page.getByRole('alert').filter({ hasText: 'unknown-user' }).waitFor();
    await page.getByLabel('Email', { exact: true }).fill('viewer@example.com');
    await page.getByLabel('Role', { exact: true }).selectOption('viewer');
    await page.getByRole('button', { name: 'Add member' }).click();
    await page.getByRole('cell', { name: 'viewer@example.com', exact: true }).waitFor();
    await checkPage('08-members');

    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('heading', { level: 1, name: 'API keys' }).waitFor();
    await page.getByLabel('Key name').fill('CI pipeline');
    await page.getByRole('button', { name: 'Create key' }).click();
    const secret = await page.getByLabel('New API key secret').inputValue();
    expect(secret.length).toBeGreaterThan(20);
    await checkPage('09-api-key-shown-once');
    await page.reload();
    await page.getByRole('cell', { name: 'CI pipeline', exact: true }).waitFor();
    await expect(page.getByLabel('New API key secret').count()).resolves.toBe(0);
    await expect(page.content()).resolves.not.toContain(secret);
  });

  it('creates a ReAct agent, shows problems at their fields, and saves the draft', async () => {
    await page.getByRole('link', { name: 'Agents', exact: true }).click();
    await page.getByLabel('Name', { exact: true }).fill('Researcher');
    await page.getByLabel('ReAct').check();
    await page.getByRole('button', { name: 'Create agent' }).click();
    await page.getByRole('heading', { level: 1, name: 'Agent: Researcher' }).waitFor();
    agentUrl = page.url();
    await page.getByRole('button', { name: 'Check for problems' }).click();
    await page.getByText('Choose a model connection and model.').first().waitFor();
    await page.getByText('A ReAct agent needs a prompt.').first().waitFor();
    await checkPage('10-editor-problems');

    await page.getByLabel('Use a shared prompt').check();
    await page.getByRole('tab', { name: 'Model' }).click();
    await page.getByLabel('Model connection').selectOption({ label: 'Offline' });
    await page.getByRole('tab', { name: 'Execution' }).click();
    await page.getByLabel('Loop budget').fill('0');
    await page.getByRole('button', { name: 'Save draft' }).click();
    // The server refuses 0 (at least 1); the message stands at the field.
    await page.locator('#main [aria-invalid="true"]').first().waitFor();
    await expect(page.getByLabel('Loop budget').getAttribute('aria-invalid')).resolves.toBe('true');
    await page.getByLabel('Loop budget').fill('50');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByText('Saved (revision 2).').waitFor();
    await page.getByRole('button', { name: 'Check for problems' }).click();
    await page.getByText('The draft is ready to publish.').waitFor();
    await checkPage('11-editor-execution');
  });

  it('shows a conflicting save clearly and lets the user overwrite', async () => {
    const other = await context.newPage();
    await other.goto(agentUrl);
    await other.getByRole('tab', { name: 'Execution' }).click();
    await other.getByLabel('Loop budget').fill('70');
    await other.getByRole('button', { name: 'Save draft' }).click();
    await other.getByText('Saved (revision 3).').waitFor();
    await other.close();

    await page.getByLabel('Loop budget').fill('60');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByRole('heading', { name: 'Someone else saved this draft' }).waitFor();
    await page.getByText('the draft is now at revision 3').waitFor();
    await checkPage('12-editor-conflict');
    await page.getByRole('button', { name: 'Overwrite with my changes' }).click();
    await page.getByText('Saved (revision 4).').waitFor();
    await expect(page.getByLabel('Loop budget').inputValue()).resolves.toBe('60');
  });

  it('publishes with release notes and lists the release', async () => {
    await page.getByRole('button', { name: 'Publish…' }).click();
    await page.getByRole('dialog', { name: 'Publish a release' }).waitFor();
    await page.getByLabel('Release notes').fill('First release: offline model.');
    await checkPage('13-publish-dialog');
    await page.getByRole('button', { name: 'Publish release' }).click();
    await page.getByText('Published release v1.').waitFor();
    await page.getByRole('link', { name: 'See the releases' }).click();
    await page.getByRole('heading', { level: 1, name: 'Releases of Researcher' }).waitFor();
    await page.getByRole('cell', { name: 'First release: offline model.' }).waitFor();
    await page.getByRole('cell', { name: 'v1', exact: true }).waitFor();
    await checkPage('14-releases');
    // The A2A switch (issue 32): off by default; on, the Agent Card is served at the URL shown.
    const a2a = page.getByRole('checkbox', { name: 'Publish this app as an A2A agent' });
    await expect(a2a.isChecked()).resolves.toBe(false);
    // The box follows the server: it turns on once the switch is saved.
    await a2a.click();
    await page.locator('code', { hasText: 'agent-card.json' }).waitFor();
    await expect(a2a.isChecked()).resolves.toBe(true);
    const cardUrl = (await page.locator('code', { hasText: 'agent-card.json' }).textContent()) ?? '';
    const card = await page.evaluate(async (url) => (await fetch(url)).json(), cardUrl);
    expect(card).toMatchObject({ name: 'Researcher', capabilities: { streaming: true } });
    await checkPage('14-releases-a2a');
    await a2a.click();
    await page.locator('code', { hasText: 'agent-card.json' }).waitFor({ state: 'detached' });
  });

  it('builds and publishes a Plan–Executor agent whose executor copies the planner’s capabilities once', async () => {
    await page.goto(`${spaceUrl}/agents`);
    await page.getByLabel('Name', { exact: true }).fill('Planner team');
    await page.getByLabel('Plan–Executor').check();
    await page.getByRole('button', { name: 'Create agent' }).click();
    await page.getByRole('heading', { level: 1, name: 'Agent: Planner team' }).waitFor();
    await page.getByLabel('Planner prompt: text').fill('Split the question into tasks.');
    await page.getByRole('checkbox', { name: 'weather' }).first().check();
    await page.getByRole('tab', { name: 'Model' }).click();
    await page.getByLabel('Model connection').selectOption({ label: 'Offline' });
    await expect(page.getByRole('tab', { name: 'Executor roles' }).isVisible()).resolves.toBe(true);
    await page.getByRole('tab', { name: 'Executor roles' }).click();
    await page.getByRole('button', { name: "Add executor with a copy of the planner's capabilities" }).click();
    await expect(
      page.getByRole('group', { name: 'Executor 1 capabilities' }).getByRole('checkbox', { name: 'weather' }).isChecked(),
    ).resolves.toBe(true);
    await checkPage('15-plan-executor-roles');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByText('Saved (revision 2).').waitFor();
    await page.getByRole('button', { name: 'Publish…' }).click();
    await page.getByRole('button', { name: 'Publish release' }).click();
    await page.getByText('Published release v1.').waitFor();
  });

  it('works from the keyboard: focus at the page title, skip link first, tab keys in the editor', async () => {
    await page.goto(agentUrl);
    await page.getByRole('heading', { level: 1, name: 'Agent: Researcher' }).waitFor();
    // A page that opens puts focus on its title, so keyboard users start at the new content.
    await expect(page.evaluate(() => document.activeElement?.textContent)).resolves.toBe('Agent: Researcher');
    // The skip link is the first stop of the tab order and leads to the main content.
    const firstStop = await page.evaluate(
      () =>
        document.querySelector<HTMLElement>('a[href], button, input, select, textarea, [tabindex]:not([tabindex="-1"])')
          ?.textContent,
    );
    expect(firstStop).toBe('Skip to content');
    await page.getByRole('link', { name: 'Skip to content' }).focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(/#main$/);
    await page.getByRole('tab', { name: 'Work definition' }).focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Enter');
    await expect(page.getByRole('tab', { name: 'Model' }).getAttribute('aria-selected')).resolves.toBe('true');
    await page.getByLabel('Model connection').waitFor();
  });

  it('keeps deep links on reload and never shadows the API', async () => {
    await page.goto(agentUrl);
    await page.getByRole('heading', { level: 1, name: 'Agent: Researcher' }).waitFor();
    const missing = await page.evaluate(async () => {
      const response = await fetch('/api/v1/no-such-route');
      return { status: response.status, body: await response.json() };
    });
    expect(missing).toEqual({ status: 404, body: { error: expect.objectContaining({ code: 'route-not-found' }) } });
  });

  it('lets a viewer read an agent but not edit it', async () => {
    const viewerContext = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    const viewer = await viewerContext.newPage();
    await viewer.goto(`${platform.url}/sign-in`);
    await viewer.getByLabel('Email').fill('viewer@example.com');
    await viewer.getByLabel('Password').fill('viewer-password-1234');
    await viewer.getByRole('button', { name: 'Sign in' }).click();
    await viewer.getByRole('heading', { level: 1, name: 'Spaces' }).waitFor();
    await viewer.goto(agentUrl);
    await viewer.getByRole('heading', { level: 1, name: 'Agent: Researcher' }).waitFor();
    await viewer.getByText('the agent is read-only for you').waitFor();
    await expect(viewer.getByRole('button', { name: /Save draft|Saved/ }).count()).resolves.toBe(0);
    await expect(viewer.getByRole('button', { name: 'Publish…' }).count()).resolves.toBe(0);
    await expect(viewer.getByLabel('Prompt: shared prompt').isDisabled()).resolves.toBe(true);
    await checkPage('16-viewer-read-only', viewer);
    await viewerContext.close();
    expect(pageErrors).toEqual([]);
  });

  it('runs every page above under its Content-Security-Policy, and cannot be framed', async () => {
    expect(policyViolations).toEqual([]);
    // The check can fail: a page that needs what the policy forbids is reported here.
    await page.evaluate(() => {
      const style = document.createElement('div');
      style.setAttribute('style', 'color: red');
      document.body.append(style);
    });
    await expect.poll(() => policyViolations.length).toBeGreaterThan(0);
    // frame-ancestors 'none': the console refuses to load inside another page's frame.
    const framing = await browser.newPage();
    const refusals: string[] = [];
    framing.on('console', (message) => {
      if (isContentSecurityPolicyViolation(message.text())) refusals.push(message.text());
    });
    await framing.setContent(`<iframe src="${platform.url}/sign-in" title="console"></iframe>`);
    await expect.poll(() => refusals.join('\n')).toContain("frame-ancestors 'none'");
    await framing.close();
  });
});
