import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { type Browser, chromium, type Page } from 'playwright-core';

/** Debian's Chromium (`apt-get install chromium`; `.ci/run` installs it). */
export const chromiumPath = process.env.AGENTLOOM_CHROMIUM_PATH || '/usr/bin/chromium';

/**
 * Whether the browser tests can run. Without Chromium they are skipped with a warning, except
 * under `AGENTLOOM_REQUIRE_CHROMIUM=1` (CI), where they run and fail instead.
 */
export function chromiumAvailable(): boolean {
  if (existsSync(chromiumPath)) return true;
  if (process.env.AGENTLOOM_REQUIRE_CHROMIUM === '1') return true;
  console.warn(`[agentloom] SKIPPED the console browser tests: no Chromium at ${chromiumPath} (apt-get install -y chromium).`);
  return false;
}

/** Launches headless Chromium with the flags a container needs (no sandbox, no GPU, no background traffic). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      // The console follows the browser's language: English unless a context asks for another
      // locale (`browser.newContext({ locale: 'zh-CN' })`), whatever the machine's LANG says.
      '--lang=en-US',
    ],
  });
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** One accessibility violation as axe-core reports it. */
export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/**
 * Runs axe-core (WCAG 2 A/AA and best practices) on the page as it is now and returns the
 * serious and critical violations.
 */
export async function seriousAccessibilityViolations(page: Page): Promise<AxeViolation[]> {
  // Evaluated through the DevTools protocol rather than added as an inline <script>: the console's
  // Content-Security-Policy (rightly) refuses inline scripts.
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as { axe: { run: (context: Document, options: unknown) => Promise<{ violations: AxeViolation[] }> } }
    ).axe;
    const result = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21aa', 'best-practice'] },
    });
    return result.violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      help: violation.help,
      nodes: violation.nodes.map((node) => ({ target: node.target })),
    }));
  });
  return violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
}

/** A readable list of violations for an assertion message. */
export function describeViolations(violations: readonly AxeViolation[]): string {
  return violations
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.help} at ${JSON.stringify(violation.nodes.map((node) => node.target))}`,
    )
    .join('\n');
}

/** Whether a console message is Chromium reporting something the page's Content-Security-Policy refused. */
export function isContentSecurityPolicyViolation(text: string): boolean {
  return /Content Security Policy/i.test(text);
}
