export { type FrontMatter, FrontMatterSyntaxError, type FrontMatterValue, parseFrontMatter } from './front-matter.js';
export { type LoadSkillsOptions, loadSkills, type Skill, type SkillCatalog } from './load-skills.js';
export { InvalidSkillError, type SkillProblem } from './skill-errors.js';
export { createReadSkillTool, skillsPromptSection } from './skill-tools.js';
export { type SkillMetadata, type SkillValidation, validateSkillFile } from './skill-validation.js';
