import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ElicitationMcpServer } from '../../../test/support/elicitation-mcp-server.js';
import { ToolCallingModelServer } from '../../platform/test/tool-calling-model.js';
import { chromiumAvailable } from './browser/chromium.js';
import { type ConsoleSession, openConsoleSession } from './browser/console-session.js';

/** Where each step's screenshot goes (git-ignored). */
const screenshotDirectory = fileURLToPath(new URL('../test-results/elicitation/', import.meta.url));

/**
 * MCP elicitation in the chat (ADR 0038), in real Chromium against the real `agentloom serve`, a
 * scripted model and a real MCP server whose tool asks the user for a booking during the call:
 * the chat page shows the question as a form generated from the requested schema (a text box, a
 * number box, a list for the enum, a checkbox for the boolean); an answer outside the schema is
 * refused with the server's problems shown; a valid one goes to the server (the defaults of the
 * fields left alone applied) and the run answers with it. In zh-CN the same form, declined.
 */
describe.runIf(chromiumAvailable())('MCP elicitation answered from the chat page in Chromium', { timeout: 180_000 }, () => {
  let session: ConsoleSession;
  let mcp: ElicitationMcpServer;
  let model: ToolCallingModelServer;
  let chatUrl = '';

  beforeAll(async () => {
    mcp = await new ElicitationMcpServer().start();
    model = await new ToolCallingModelServer().start();
    session = await openConsoleSession({ screenshotDirectory });
    const { space } = await session.call<{ space: { id: string } }>('POST', '/spaces', { name: 'Bookings' });
    const { connection } = await session.call<{ connection: { id: string } }>('POST', `/spaces/${space.id}/model-connections`, {
      name: 'Scripted',
      provider: 'openai-compatible',
      baseUrl: `${model.url}/v1`,
      key: { label: 'main', value: 'sk-scripted-key-0123456789' },
      models: [{ modelId: 'scripted' }],
    });
    const { resource } = await session.call<{ resource: { id: string } }>('POST', `/spaces/${space.id}/resources`, {
      type: 'mcp-server',
      name: 'Restaurant',
      content: { transport: 'streamable-http', url: mcp.url },
    });
    const { app } = await session.call<{ app: { id: string } }>('POST', `/spaces/${space.id}/apps`, {
      kind: 'agent',
      mode: 'react',
      name: 'Booking agent',
    });
    const { draft } = await session.call<{ draft: { revision: number } }>('GET', `/apps/${app.id}/draft`);
    await session.call(
      'PUT',
      `/apps/${app.id}/draft`,
      {
        config: {
          model: { connectionId: connection.id, modelId: 'scripted' },
          prompt: { text: 'You book tables.' },
          capabilities: { mcpServers: [resource.id] },
        },
      },
      { 'if-match': `"${draft.revision}"` },
    );
    await session.call('POST', `/apps/${app.id}/releases`, { notes: 'bookings' });
    chatUrl = `${session.platform.url}/spaces/${space.id}/agents/${app.id}/chat`;
  }, 240_000);

  afterEach(async (test) => {
    if (test.task.result?.state === 'fail')
      await session.page.screenshot({ path: `${screenshotDirectory}failed-${test.task.name.slice(0, 24)}.png`, fullPage: true });
  });

  afterAll(async () => {
    await session?.close();
    await mcp?.close();
    await model?.close();
  });

  it('shows the question as a form, refuses content outside the schema, and sends the accepted answer', async () => {
    const { page } = session;
    await page.goto(chatUrl);
    await page.getByRole('textbox', { name: 'Message' }).fill('call Restaurant__book_table {"date":"Friday"}');
    await page.getByRole('button', { name: 'Ask' }).click();
    const questions = page.getByRole('region', { name: 'Questions from tools' });
    await questions.getByText('Who is the table on Friday for?').waitFor();
    await questions.getByText('asked during the call of Restaurant__book_table').waitFor();
    const guests = questions.getByRole('spinbutton', { name: /Guests/ });
    const seating = questions.getByRole('combobox', { name: /Seating/ });
    await expect(seating.inputValue()).resolves.toBe('indoor');
    await expect(questions.getByRole('checkbox', { name: /Vegetarian menu/ }).isChecked()).resolves.toBe(false);
    await questions.getByRole('textbox', { name: /Name/ }).fill('Ada');
    await guests.fill('40');
    await session.checkPage('01-question-form');

    // Outside the schema (at most 12 guests): the server refuses it and says where.
    await questions.getByRole('button', { name: 'Send answer' }).click();
    await questions.getByText('The answer was not taken.').waitFor();
    await questions
      .getByText(/guests/)
      .first()
      .waitFor();
    expect(mcp.answers).toEqual([]);
    await session.checkPage('02-invalid-answer');

    await guests.fill('2');
    await seating.selectOption('outdoor');
    await questions.getByRole('button', { name: 'Send answer' }).click();
    const content = { name: 'Ada', guests: 2, seating: 'outdoor', vegetarian: false };
    await page.getByText(`answer: booked on Friday: ${JSON.stringify(content)}`).waitFor();
    expect(mcp.answers).toEqual([{ action: 'accept', content }]);
    await questions.getByText(/^Answered by /).waitFor();
    await session.checkPage('03-answered');
  });

  it('shows the same form in zh-CN, and a decline reaches the server', async () => {
    const { page } = session;
    await page.getByRole('combobox', { name: 'Language' }).selectOption('zh-CN');
    // A new session: the scripted model would otherwise answer from the last session's tool result.
    await page.getByRole('link', { name: '新对话' }).click();
    await page.getByRole('textbox', { name: '消息' }).fill('call Restaurant__book_table {"date":"Saturday"}');
    await page.getByRole('button', { name: '提问' }).click();
    const questions = page.getByRole('region', { name: '工具的提问' }).last();
    await questions.getByText('Who is the table on Saturday for?').waitFor();
    await questions.getByRole('button', { name: '发送回答' }).waitFor();
    await session.checkPage('04-zh-CN-question-form');
    await questions.getByRole('button', { name: '拒绝' }).click();
    await page.getByText('answer: not booked (decline)').waitFor();
    expect(mcp.answers.at(-1)).toEqual({ action: 'decline' });
    await session.checkPage('05-zh-CN-declined');
    await page.getByRole('combobox', { name: '语言' }).selectOption('en');
    expect(session.pageErrors).toEqual([]);
  });

  it('shows a pending question in the run view too, and answers it there', async () => {
    const { page } = session;
    await page.goto(chatUrl);
    await page.getByRole('textbox', { name: 'Message' }).fill('call Restaurant__book_table {"date":"Monday"}');
    await page.getByRole('button', { name: 'Ask' }).click();
    await page.getByText('Who is the table on Monday for?').waitFor();
    await page.getByRole('link', { name: 'Run view' }).last().click();
    // The chat page shows the same question: wait for the run view itself, not only the text.
    await page.waitForURL(/\/runs\/[^/?#]+$/);
    const questions = page.getByRole('region', { name: 'Questions from tools' });
    await questions.getByText('Who is the table on Monday for?').waitFor();
    const runId = page.url().split('/runs/')[1] ?? '';
    const { run } = await session.call<{ run: { status: string } }>('GET', `/runs/${runId}`);
    expect(run.status).toBe('waiting-input');
    await page.getByText('waiting for input').first().waitFor();
    await questions.getByRole('textbox', { name: /Name/ }).fill('Grace');
    await questions.getByRole('spinbutton', { name: /Guests/ }).fill('4');
    await questions.getByRole('checkbox', { name: /Vegetarian menu/ }).check();
    await session.checkPage('06-run-view-question');
    await questions.getByRole('button', { name: 'Send answer' }).click();
    await questions.getByText(/^Answered by /).waitFor();
    const content = { name: 'Grace', guests: 4, seating: 'indoor', vegetarian: true };
    await page
      .getByText(`answer: booked on Monday: ${JSON.stringify(content)}`)
      .first()
      .waitFor();
    expect(mcp.answers.at(-1)).toEqual({ action: 'accept', content });
    await session.checkPage('07-run-view-answered');
  });
});
