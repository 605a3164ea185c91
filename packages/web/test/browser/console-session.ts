import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { expect } from 'vitest';
import { describeViolations, launchChromium, seriousAccessibilityViolations } from './chromium.js';
import { callFrom, signInThroughPage } from './console-api.js';
import { buildConsole, type RunningPlatform, startPlatform } from './platform-server.js';

/** A browser suite's console: the real server on the current build, one page, signed in as the admin. */
export interface ConsoleSession {
  readonly platform: RunningPlatform;
  readonly browser: Browser;
  readonly page: Page;
  /** Uncaught errors of the page, which a suite expects to stay empty. */
  readonly pageErrors: string[];
  /** Calls the API from the page with its session; a status of 300 or more fails the test. */
  call<Result>(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Result>;
  /** Saves a full-page screenshot as `<name>.png` and expects no serious axe-core violation. */
  checkPage(name: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * Builds the console from the current sources, starts `agentloom serve` on a fresh data directory
 * (with `environment` added), opens Chromium at `viewport` and signs in through the sign-in page:
 * what every browser suite of the console starts with.
 */
export async function openConsoleSession(options: {
  screenshotDirectory: string;
  viewport?: { width: number; height: number };
  environment?: Record<string, string>;
}): Promise<ConsoleSession> {
  mkdirSync(options.screenshotDirectory, { recursive: true });
  const built = await buildConsole();
  const platform = await startPlatform(built.directory, options.environment);
  const browser = await launchChromium();
  const context = await browser.newContext({ viewport: options.viewport ?? { width: 1280, height: 900 } });
  context.setDefaultTimeout(20_000);
  const page = await context.newPage();
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await signInThroughPage(page, platform.url, platform.adminEmail, platform.adminPassword);
  return {
    platform,
    browser,
    page,
    pageErrors,
    async call<Result>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
      const answer = await callFrom<Result>(page, method, path, body, headers);
      expect(answer.status, `${method} ${path}: ${JSON.stringify(answer.body)}`).toBeLessThan(300);
      return answer.body;
    },
    async checkPage(name: string) {
      await page.screenshot({ path: `${options.screenshotDirectory}${name}.png`, fullPage: true });
      const violations = await seriousAccessibilityViolations(page);
      expect(violations, describeViolations(violations)).toEqual([]);
    },
    async close() {
      await browser.close();
      await platform.stop();
      built.remove();
    },
  };
}
