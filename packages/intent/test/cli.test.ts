/** `agentloom-intent eval`: the tables, and the exit code against the thresholds given on the command line. */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { runCli } from '@agentloom/intent';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const bin = fileURLToPath(new URL('../bin/agentloom-intent.js', import.meta.url));
const corpus = fileURLToPath(new URL('../corpus/helpdesk.json', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'agentloom-intent-cli-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [bin, ...args], { maxBuffer: 16 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

function inProcess(args: string[]) {
  let stdout = '';
  let stderr = '';
  const done = runCli(args, { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text) });
  return done.then((code) => ({ code, stdout, stderr }));
}

describe('agentloom-intent eval', () => {
  it('prints the tables and exits 0 when the thresholds are met, writing the report as JSON too', async () => {
    const report = join(scratch, 'report.json');
    const result = await inProcess(['eval', corpus, '--min-f1', '0.9', '--json', report]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    for (const heading of [
      'Per command type',
      'Per action (start commands)',
      'Confusion of turn labels',
      'Turns decided per layer',
    ]) {
      expect(result.stdout).toContain(heading);
    }
    expect(result.stdout).toMatch(/✓ zh-flight-step-by-step#1 +rules +我想订机票/u);
    expect(result.stdout).toMatch(/met {4}F1 \(micro\) +0\.9\d\d ≥ 0\.9/u);
    const written = JSON.parse(readFileSync(report, 'utf8')) as { turns: unknown[]; thresholds: Array<{ met: boolean }> };
    expect(written.turns).toHaveLength(335);
    expect(written.thresholds).toEqual([expect.objectContaining({ met: true })]);
  });

  it('exits 1 from the installed command when a threshold given on the command line is not met', async () => {
    const result = await cli(['eval', corpus, '--min-f1', '0.99', '--min-type-f1', 'clarify=0.5', '--turns', 'none']);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('Per command type');
    expect(result.stdout).toMatch(/FAILED F1 \(micro\)/u);
    expect(result.stdout).toMatch(/FAILED F1 of clarify/u);
    expect(result.stdout).not.toContain('Turns (✓ right');
  }, 60_000);

  it('exits 2 on bad arguments or an unreadable corpus, saying why', async () => {
    expect(await inProcess(['eval'])).toMatchObject({ code: 2, stderr: expect.stringContaining('missing the corpus file') });
    expect(await inProcess(['eval', corpus, '--min-f1', '1.5'])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--min-f1 takes a number from 0 to 1'),
    });
    expect(await inProcess(['eval', corpus, '--min-type-f1', 'dance=0.5'])).toMatchObject({ code: 2 });
    expect(await inProcess(['eval', join(scratch, 'missing.json')])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('ENOENT'),
    });
    const bad = join(scratch, 'bad.json');
    writeFileSync(bad, JSON.stringify({ catalog: { formatVersion: 1, actions: [] }, dialogues: [] }));
    const invalid = await inProcess(['eval', bad]);
    expect(invalid).toMatchObject({ code: 2, stderr: expect.stringContaining('Invalid intent corpus') });
    expect(await inProcess(['--help'])).toMatchObject({
      code: 0,
      stdout: expect.stringContaining('Usage: agentloom-intent eval'),
    });
  });
});
