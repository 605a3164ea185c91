import type { Page } from 'playwright-core';

/** Calls the API from inside a page with its console session (cookie + CSRF token). */
export function callFrom<Result>(
  target: Page,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  return target.evaluate(
    async ({ method, path, body, headers }) => {
      const all: Record<string, string> = { 'content-type': 'application/json', ...headers };
      const token = localStorage.getItem('agentloom.csrf-token');
      if (token) all['x-csrf-token'] = token;
      const response = await fetch(`/api/v1${path}`, {
        method,
        headers: all,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as Result };
    },
    { method, path, body, headers },
  );
}

/** Signs in through the sign-in page and waits for the spaces page. */
export async function signInThroughPage(target: Page, baseUrl: string, email: string, password: string): Promise<void> {
  await target.goto(`${baseUrl}/sign-in`);
  await target.getByLabel('Email').fill(email);
  await target.getByLabel('Password').fill(password);
  await target.getByRole('button', { name: 'Sign in' }).click();
  await target.getByRole('heading', { level: 1, name: 'Spaces' }).waitFor();
}
