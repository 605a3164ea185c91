import { readdir, readFile, realpath, stat } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';
import { InvalidConfigurationError } from '../../core/errors/index.js';
import type { Tool } from '../tools/tool.js';
import type { Skill } from './skill.js';
import { InvalidSkillError, type SkillProblem } from './skill-errors.js';
import { createReadSkillTool, skillsPromptSection } from './skill-tools.js';
import { validateSkillFile } from './skill-validation.js';

export type { Skill } from './skill.js';

/** Options of `loadSkills`. */
export interface LoadSkillsOptions {
  /** Folders whose sub-folders are skills. Each must exist. */
  roots?: readonly string[];
  /** A project folder; its `.agents/skills/` is scanned too when it exists. */
  projectDirectory?: string;
  /** The role's authorised skills (C-13): only these are listed and readable. Default: all found. */
  only?: readonly string[];
  /** `throw` (default): any invalid skill fails the load. `skip`: invalid skills are left out and reported. */
  onInvalid?: 'throw' | 'skip';
}

/** What `loadSkills` found, ready to give to an agent role. */
export interface SkillCatalog {
  /** Valid, authorised skills, sorted by name. Pass them to `createWorkspace({ skills })` to mount them. */
  skills: readonly Skill[];
  /** Problems of skills that were skipped (`onInvalid: 'skip'`). */
  problems: readonly SkillProblem[];
  /** Non-fatal remarks (unknown fields, a description that does not say when to use the skill). */
  warnings: readonly SkillProblem[];
  /** `read_skill`: reads `SKILL.md` and the files it references, never running anything. */
  tools: readonly Tool[];
  /** The context section listing each skill's name, description and entry (add it to the role prompt). */
  promptSection: string;
}

const maximumSkillFileBytes = 256 * 1024;

/**
 * Discovers skills (K-1): scans each configured root and the project's `.agents/skills/`,
 * validates every `SKILL.md` against the Agent Skills format, and returns the role's authorised
 * skills with a `read_skill` tool and the context section that lists them. Loading reads only
 * front matter; nothing in a skill is executed. Invalid skills throw `InvalidSkillError` (listing
 * every problem) unless `onInvalid: 'skip'`.
 */
export async function loadSkills(options: LoadSkillsOptions = {}): Promise<SkillCatalog> {
  const roots = [...(options.roots ?? [])];
  const issues = roots
    .filter((root) => !isAbsolute(root))
    .map((root) => ({ path: 'roots', message: `"${root}" is not an absolute path` }));
  if (options.projectDirectory !== undefined && !isAbsolute(options.projectDirectory)) {
    issues.push({ path: 'projectDirectory', message: 'must be an absolute path' });
  }
  if (issues.length > 0) throw new InvalidConfigurationError('skills', issues);
  const problems: SkillProblem[] = [];
  const warnings: SkillProblem[] = [];
  const found = new Map<string, Skill>();
  const scan = [...roots.map((root) => ({ root: resolve(root), required: true }))];
  if (options.projectDirectory)
    scan.push({ root: join(resolve(options.projectDirectory), '.agents', 'skills'), required: false });
  for (const { root, required } of scan) {
    const names = await readdir(root).catch((error: NodeJS.ErrnoException) => {
      if (required || error.code !== 'ENOENT')
        problems.push({ path: root, message: `cannot read the skills root (${error.code})` });
      return [] as string[];
    });
    for (const folder of names.filter((name) => !name.startsWith('.')).sort()) {
      const skill = await loadOne(join(root, folder), folder, problems, warnings);
      if (!skill) continue;
      const earlier = found.get(skill.name);
      if (earlier) {
        problems.push({
          path: skill.directory,
          field: 'name',
          message: `"${skill.name}" is also the skill at ${earlier.directory}`,
        });
        continue;
      }
      found.set(skill.name, skill);
    }
  }
  for (const name of options.only ?? []) {
    if (!found.has(name)) problems.push({ path: name, message: 'an authorised skill that was not found in any root' });
  }
  if (problems.length > 0 && (options.onInvalid ?? 'throw') === 'throw') throw new InvalidSkillError(problems);
  const allowed = options.only ? new Set(options.only) : undefined;
  const skills = [...found.values()]
    .filter((skill) => !allowed || allowed.has(skill.name))
    .sort((a, b) => a.name.localeCompare(b.name));
  return {
    skills,
    problems,
    warnings,
    tools: skills.length > 0 ? [createReadSkillTool(skills)] : [],
    promptSection: skillsPromptSection(skills),
  };
}

async function loadOne(
  folderPath: string,
  folder: string,
  problems: SkillProblem[],
  warnings: SkillProblem[],
): Promise<Skill | undefined> {
  let directory: string;
  try {
    directory = await realpath(folderPath);
    if (!(await stat(directory)).isDirectory()) return undefined;
  } catch {
    problems.push({ path: folderPath, message: 'cannot be read' });
    return undefined;
  }
  const file = join(directory, 'SKILL.md');
  let text: string;
  try {
    const status = await stat(file);
    if (status.size > maximumSkillFileBytes) {
      problems.push({ path: folderPath, message: `SKILL.md is larger than ${maximumSkillFileBytes} bytes` });
      return undefined;
    }
    text = await readFile(file, 'utf8');
  } catch {
    problems.push({ path: folderPath, message: 'has no SKILL.md (the name is case-sensitive)' });
    return undefined;
  }
  const validation = validateSkillFile(text, folder, folderPath);
  warnings.push(...validation.warnings);
  if (!validation.valid) {
    problems.push(...validation.problems);
    return undefined;
  }
  return { ...validation.metadata, directory, entry: `/skills/${validation.metadata.name}/SKILL.md` };
}
