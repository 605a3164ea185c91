import type { SkillMetadata } from './skill-validation.js';

/** One loaded, valid skill. Only its metadata is loaded; the body is read on demand (K-1). */
export interface Skill extends SkillMetadata {
  /** The skill folder on the host (real path). */
  directory: string;
  /** Where the model reads its instructions: `/skills/<name>/SKILL.md`. */
  entry: string;
}
