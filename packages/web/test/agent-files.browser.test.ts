import { fileURLToPath } from 'node:url';
import { crc32, deflateSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ToolCallingModelServer } from '../../platform/test/tool-calling-model.js';
import { chromiumAvailable } from './browser/chromium.js';
import { type ConsoleSession, openConsoleSession } from './browser/console-session.js';

const screenshotDirectory = fileURLToPath(new URL('../test-results/agent-files/', import.meta.url));

/** A 64×64 PNG, all one colour (deflated rows of RGB pixels), to see the image preview. */
function solidPng(size: number, rgb: [number, number, number]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: size }, () => rgb).flat())]);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: size }, () => row)));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', pixels),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
const png = solidPng(64, [30, 120, 200]);

/**
 * The agent editor's Files tab (issue 36) in real Chromium against the real `agentloom serve`
 * (fresh SQLite data directory, the console built from the current sources): a folder made and
 * files uploaded on the tab are listed in its tree and previewed (text, Markdown, an image); a run
 * of the published agent then reads the uploaded file with its `read_file` tool at
 * `/mounts/files/…`; a file deleted on the tab is gone. Screenshots in en and zh-CN; axe-core finds
 * no serious violation.
 */
describe.runIf(chromiumAvailable())('the Files tab of the agent editor in Chromium', { timeout: 180_000 }, () => {
  let session: ConsoleSession;
  let page: Page;
  let model: ToolCallingModelServer;
  let editorUrl = '';
  let appId = '';
  const call = <Result>(method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
    session.call<Result>(method, path, body, headers);

  beforeAll(async () => {
    model = await new ToolCallingModelServer().start();
    session = await openConsoleSession({ screenshotDirectory });
    page = session.page;
    const { space } = await call<{ space: { id: string } }>('POST', '/spaces', { name: 'Files' });
    const { connection } = await call<{ connection: { id: string } }>('POST', `/spaces/${space.id}/model-connections`, {
      name: 'Scripted',
      provider: 'openai-compatible',
      baseUrl: `${model.url}/v1`,
      key: { label: 'main', value: 'sk-scripted-key-0123456789' },
      models: [{ modelId: 'scripted' }],
    });
    const { app } = await call<{ app: { id: string } }>('POST', `/spaces/${space.id}/apps`, {
      kind: 'agent',
      mode: 'react',
      name: 'Price clerk',
    });
    appId = app.id;
    const { draft } = await call<{ draft: { revision: number } }>('GET', `/apps/${app.id}/draft`);
    await call(
      'PUT',
      `/apps/${app.id}/draft`,
      {
        config: {
          model: { connectionId: connection.id, modelId: 'scripted' },
          prompt: { text: 'Answer from the business files.' },
          capabilities: { builtIn: ['workspace-files'], tools: [], skills: [] },
        },
      },
      { 'if-match': `"${draft.revision}"` },
    );
    await call('POST', `/apps/${app.id}/releases`, { notes: 'first' });
    editorUrl = `${session.platform.url}/spaces/${space.id}/agents/${app.id}`;
  }, 240_000);

  afterEach(async (context) => {
    if (context.task.result?.state === 'fail')
      await page.screenshot({ path: `${screenshotDirectory}failed-${context.task.name.slice(0, 24)}.png`, fullPage: true });
  });

  afterAll(async () => {
    await session?.close();
    await model?.close();
  });

  it('uploads on the Files tab; the tree and the previews show the files; a run reads one with its file tool', async () => {
    await page.goto(editorUrl);
    await page.getByRole('tab', { name: 'Files' }).click();
    await page.getByText('This folder is empty.').waitFor();
    await page.getByLabel('New folder name').fill('prices');
    await page.getByRole('button', { name: 'Create folder' }).click();
    await page.getByTestId('files-target').getByText('Business files/prices').waitFor();
    await page.getByLabel('Upload files').setInputFiles([
      { name: 'list.txt', mimeType: 'text/plain', buffer: Buffer.from('Widgets cost 42 euros.') },
      { name: 'widget.png', mimeType: 'image/png', buffer: png },
    ]);
    await page.getByText('2 files uploaded.').waitFor();
    await page.getByRole('button', { name: 'list.txt' }).click();
    await page.getByTestId('file-preview').getByText('Widgets cost 42 euros.').waitFor();
    await page.getByRole('button', { name: 'widget.png' }).click();
    const image = page.getByRole('img', { name: 'widget.png' });
    await image.waitFor();
    await expect.poll(() => image.evaluate((element) => (element as HTMLImageElement).naturalWidth)).toBe(64);
    await session.checkPage('01-business-files');

    // The wiki: a Markdown page is previewed as a page, never as HTML from the file.
    await page.getByRole('radio', { name: 'Wiki' }).check();
    await page.getByLabel('Upload files').setInputFiles({
      name: 'guide.md',
      mimeType: 'text/markdown',
      buffer: Buffer.from(
        '# Returns\n\nWidgets may be **returned** within 30 days.\n\n- keep the box\n- <img src=x onerror=alert(1)>\n',
      ),
    });
    await page.getByText('1 file uploaded.').waitFor();
    await page.getByRole('button', { name: 'guide.md' }).click();
    await page.getByRole('heading', { name: 'Returns' }).waitFor();
    expect(await page.locator('.markdown-view strong').textContent()).toBe('returned');
    expect(await page.locator('.markdown-view img').count()).toBe(0);
    await session.checkPage('02-wiki-markdown');

    // What the tab uploaded, the agent's file tool reads in a run.
    const { run } = await call<{ run: { status: string; output: string } }>('POST', `/apps/${appId}/runs?wait=30`, {
      input: `call read_file ${JSON.stringify({ path: '/mounts/files/prices/list.txt' })}`,
      mode: 'blocking',
    });
    expect(run.status).toBe('succeeded');
    expect(run.output).toContain('Widgets cost 42 euros.');
    expect(session.pageErrors).toEqual([]);
  });

  it('deletes a file on the tab, after a confirmation; shows the tab in zh-CN', async () => {
    await page.goto(editorUrl);
    await page.getByRole('tab', { name: 'Files' }).click();
    await page.getByRole('radio', { name: 'Wiki' }).check();
    await page.getByRole('button', { name: 'guide.md' }).click();
    await page.getByRole('button', { name: 'Delete guide.md' }).click();
    await page.getByText('Delete guide.md? This cannot be undone.').waitFor();
    await page.getByRole('button', { name: 'Yes, delete' }).click();
    await page.getByText('This folder is empty.').waitFor();
    const listing = await call<{ entries: unknown[] }>('GET', `/apps/${appId}/files/wiki`);
    expect(listing.entries).toEqual([]);

    await page.getByRole('combobox', { name: 'Language' }).selectOption('zh-CN');
    await page.getByRole('tab', { name: '文件' }).waitFor();
    await page.getByRole('radio', { name: '业务文件' }).check();
    await page.getByRole('button', { name: 'prices' }).click();
    await page.getByRole('button', { name: 'list.txt' }).click();
    await page.getByTestId('file-preview').getByText('Widgets cost 42 euros.').waitFor();
    await session.checkPage('03-zh-CN');
    await page.getByRole('combobox', { name: '语言' }).selectOption('en');
    expect(session.pageErrors).toEqual([]);
  });
});
