import { FrontMatterSyntaxError, type FrontMatterValue, parseFrontMatter } from './front-matter.js';
import type { SkillProblem } from './skill-errors.js';

/** The validated metadata of one skill (the Agent Skills front matter fields). */
export interface SkillMetadata {
  name: string;
  description: string;
  license?: string;
  compatibility?: string;
  metadata: Readonly<Record<string, string>>;
  /** Tools the skill expects to be allowed (experimental in the format; recorded, not enforced here). */
  allowedTools: readonly string[];
}

/** The outcome of validating one `SKILL.md`. */
export type SkillValidation =
  | { valid: true; metadata: SkillMetadata; warnings: SkillProblem[] }
  | { valid: false; problems: SkillProblem[]; warnings: SkillProblem[] };

const namePattern = /^[a-z0-9]+(-[a-z0-9]+)*$/;
const knownFields = new Set(['name', 'description', 'license', 'compatibility', 'metadata', 'allowed-tools']);

/**
 * Validates the text of a `SKILL.md` against the Agent Skills format (K-1): `name` required,
 * 1–64 lowercase letters, digits and single hyphens, equal to the folder name; `description`
 * required, at most 1024 characters; optional `license`, `compatibility` (at most 500),
 * `metadata` (string to string) and `allowed-tools` (space-separated or a list). Unknown fields
 * and a description that does not say when to use the skill are warnings, not errors (other
 * tools add fields of their own).
 */
export function validateSkillFile(text: string, folderName: string, path: string): SkillValidation {
  const problems: SkillProblem[] = [];
  const warnings: SkillProblem[] = [];
  let data: Record<string, FrontMatterValue>;
  try {
    data = parseFrontMatter(text).data;
  } catch (error) {
    if (!(error instanceof FrontMatterSyntaxError)) throw error;
    return { valid: false, problems: [{ path, message: `front matter: ${error.message}` }], warnings };
  }
  const problem = (field: string, message: string) => problems.push({ path, field, message });
  const name = data.name;
  if (typeof name !== 'string' || name === '') problem('name', 'required');
  else {
    if (name.length > 64) problem('name', 'at most 64 characters');
    if (!namePattern.test(name))
      problem('name', 'lowercase letters, digits and single hyphens only, not starting or ending with a hyphen');
    if (name !== folderName) problem('name', `must equal the folder name "${folderName}"`);
  }
  const description = data.description;
  if (typeof description !== 'string' || description.trim() === '')
    problem('description', 'required: say what the skill does and when to use it');
  else {
    if (description.length > 1024) problem('description', `at most 1024 characters (has ${description.length})`);
    if (!/\bwhen\b/i.test(description))
      warnings.push({ path, field: 'description', message: 'should say when to use the skill' });
  }
  const optionalText = (field: string, limit?: number) => {
    const value = data[field];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'string') {
      problem(field, 'must be a text');
      return undefined;
    }
    if (limit !== undefined && value.length > limit) problem(field, `at most ${limit} characters`);
    return value;
  };
  const license = optionalText('license');
  const compatibility = optionalText('compatibility', 500);
  const metadata = data.metadata;
  if (metadata !== undefined && metadata !== null && (typeof metadata !== 'object' || Array.isArray(metadata))) {
    problem('metadata', 'must be a mapping of texts');
  }
  const allowedTools = readAllowedTools(data['allowed-tools'], (message) => problem('allowed-tools', message));
  for (const field of Object.keys(data)) {
    if (!knownFields.has(field)) warnings.push({ path, field, message: 'not a field of the Agent Skills format; ignored' });
  }
  if (problems.length > 0) return { valid: false, problems, warnings };
  return {
    valid: true,
    warnings,
    metadata: {
      name: name as string,
      description: (description as string).trim(),
      ...(license !== undefined ? { license } : {}),
      ...(compatibility !== undefined ? { compatibility } : {}),
      metadata: metadata && typeof metadata === 'object' && !Array.isArray(metadata) ? { ...metadata } : {},
      allowedTools,
    },
  };
}

function readAllowedTools(value: FrontMatterValue | undefined, report: (message: string) => void): string[] {
  if (value === undefined || value === null) return [];
  if (typeof value === 'string') return value.split(/\s+/).filter(Boolean);
  if (Array.isArray(value)) return value;
  report('must be a space-separated text or a list');
  return [];
}
