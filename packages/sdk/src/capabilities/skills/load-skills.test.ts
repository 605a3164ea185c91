import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { WorkspaceAccessError } from '../../sandbox/sandbox-errors.js';
import type { Tool, ToolExecutionContext } from '../tools/tool.js';
import { loadSkills } from './load-skills.js';
import { InvalidSkillError } from './skill-errors.js';

const fixtures = fileURLToPath(new URL('./__fixtures__/', import.meta.url));
const valid = join(fixtures, 'valid');
const invalid = join(fixtures, 'invalid');
const scratch = mkdtempSync(join(tmpdir(), 'agentloom-skills-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const context: ToolExecutionContext = {
  runId: 'run',
  sessionId: 'session',
  taskId: 'task',
  operationId: 'operation',
  attempt: 1,
  signal: new AbortController().signal,
};
const read = (tool: Tool | undefined, path: string) =>
  Promise.resolve(tool?.execute(tool.parameters.parse({ path }), context)) as Promise<string>;

describe('loadSkills (K-1)', () => {
  it('loads valid skill folders from roots and the project .agents/skills, with every optional field', async () => {
    const catalog = await loadSkills({ roots: [valid], projectDirectory: join(fixtures, 'project') });
    expect(catalog.skills.map((skill) => skill.name)).toEqual(['csv-summary', 'pdf-report', 'release-notes']);
    const pdf = catalog.skills.find((skill) => skill.name === 'pdf-report');
    expect(pdf).toMatchObject({
      license: 'Apache-2.0',
      compatibility: 'Needs a POSIX shell; no network.',
      metadata: { author: 'agentloom-tests', version: '1.2' },
      allowedTools: ['read_skill', 'run_command', 'write_file'],
      entry: '/skills/pdf-report/SKILL.md',
      directory: join(valid, 'pdf-report'),
    });
    const csv = catalog.skills.find((skill) => skill.name === 'csv-summary');
    expect(csv?.description).toBe(
      'Summarises a CSV file: row count and column names. Use when a CSV file needs a quick overview.',
    );
    expect(csv?.allowedTools).toEqual(['run_command', 'read_file']);
    expect(catalog.problems).toEqual([]);
    expect(catalog.warnings).toEqual([]);
    expect(catalog.promptSection).toContain('- pdf-report: Builds a one-page report');
    expect(catalog.promptSection).toContain('(entry: /skills/pdf-report/SKILL.md)');
    expect(catalog.tools.map((tool) => tool.name)).toEqual(['read_skill']);
  });

  it('lists only the authorised skills of a role', async () => {
    const catalog = await loadSkills({ roots: [valid], only: ['csv-summary'] });
    expect(catalog.skills.map((skill) => skill.name)).toEqual(['csv-summary']);
    expect(catalog.promptSection).not.toContain('pdf-report');
    await expect(read(catalog.tools[0], '/skills/pdf-report/SKILL.md')).rejects.toSatisfy(WorkspaceAccessError.isInstance);
  });

  it('refuses every invalid folder with one typed error listing each problem', async () => {
    const error = await loadSkills({ roots: [invalid] }).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(InvalidSkillError.isInstance(error)).toBe(true);
    const problems = (error as InvalidSkillError).problems.map(
      (problem) => `${problem.path.slice(invalid.length + 1)} ${problem.field ?? '-'}`,
    );
    expect(problems).toEqual([
      'Bad_Name name',
      'bad-metadata metadata',
      'broken-yaml -',
      'colon-in-plain-value -',
      'double--hyphen name',
      'long-description description',
      'missing-skill-file -',
      'name-mismatch name',
      'no-description description',
      'no-front-matter -',
    ]);
  });

  it('skips invalid skills when asked, and reports a missing root and duplicate names', async () => {
    const skipped = await loadSkills({ roots: [invalid, valid], onInvalid: 'skip' });
    expect(skipped.skills.map((skill) => skill.name)).toEqual(['csv-summary', 'pdf-report']);
    expect(skipped.problems.length).toBeGreaterThan(5);
    const duplicate = await loadSkills({
      roots: [join(fixtures, 'duplicate', 'root-a'), join(fixtures, 'duplicate', 'root-b')],
    }).catch((caught: unknown) => caught);
    expect((duplicate as InvalidSkillError).problems[0]?.message).toContain('is also the skill at');
    const missing = await loadSkills({ roots: [join(scratch, 'nowhere')] }).catch((caught: unknown) => caught);
    expect(InvalidSkillError.isInstance(missing)).toBe(true);
    await expect(loadSkills({ roots: [valid], only: ['unknown-skill'] })).rejects.toSatisfy(InvalidSkillError.isInstance);
  });

  it('reads SKILL.md and referenced files on demand, confined to the skill, without running scripts', async () => {
    const catalog = await loadSkills({ roots: [valid] });
    const tool = catalog.tools[0];
    expect(await read(tool, 'pdf-report')).toContain('# PDF report');
    expect(await read(tool, '/skills/pdf-report/references/format.md')).toContain('each note becomes a bullet');
    expect(await read(tool, '/skills/pdf-report/scripts')).toBe('make-report.sh');
    expect(await read(tool, '/skills/pdf-report/scripts/make-report.sh')).toContain('date +%s > /work/.make-report-ran');
    expect(existsSync('/work/.make-report-ran')).toBe(false);
    expect(await read(tool, '/skills')).toBe('csv-summary/\npdf-report/');
    for (const outside of ['/skills/pdf-report/../../invalid/Bad_Name/SKILL.md', '../../etc/passwd', '/etc/passwd']) {
      await expect(read(tool, outside)).rejects.toSatisfy(WorkspaceAccessError.isInstance);
    }
  });
});
