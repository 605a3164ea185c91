import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { InvalidSkillError, loadSkills } from '@agentloom/sdk';
import { InvalidPackageError, type PackageFile, unsafePathReason } from './read-zip.js';

/** A validated, stored skill package version. */
export interface StoredSkillPackage {
  /** `skills/<content-hash>`, relative to the data directory's `resources/` folder. */
  storageRef: string;
  contentHash: string;
  name: string;
  description: string;
  fileCount: number;
}

/**
 * Validates a skill package with the SDK (`loadSkills`, K-1) and stores it by content hash under
 * `<dataDirectory>/resources/skills/<hash>/<skill-name>/` (immutable, mounted read-only later).
 * The package may hold `SKILL.md` at its root (the folder is named after `fallbackName`) or in
 * one top folder. It is written to a staging folder first and renamed into place only once it
 * is valid, so a refused upload leaves nothing behind.
 */
export async function storeSkillPackage(
  dataDirectory: string,
  files: readonly PackageFile[],
  fallbackName: string,
): Promise<StoredSkillPackage> {
  const problems = files.flatMap((file) => {
    const reason = unsafePathReason(file.path);
    return reason ? [{ path: file.path, message: `path ${reason}` }] : [];
  });
  if (problems.length > 0) throw new InvalidPackageError(problems);
  const tops = new Set(files.map((file) => file.path.split('/')[0]));
  const atRoot = files.some((file) => file.path === 'SKILL.md');
  const [onlyTop] = [...tops];
  if (!atRoot && (tops.size !== 1 || !onlyTop || !files.some((file) => file.path === `${onlyTop}/SKILL.md`))) {
    throw new InvalidPackageError([{ path: '(package)', message: 'SKILL.md must be at the root or in one top folder' }]);
  }
  const folder = atRoot ? fallbackName : (onlyTop as string);
  const normalised = files
    .map((file) => ({ path: atRoot ? `${folder}/${file.path}` : file.path, content: file.content }))
    .sort((left, right) => (left.path < right.path ? -1 : left.path > right.path ? 1 : 0));
  const hash = createHash('sha256');
  for (const file of normalised) {
    hash.update(`${file.path}\0${file.content.length}\0`);
    hash.update(file.content);
  }
  const contentHash = hash.digest('hex');
  const skillsRoot = path.join(dataDirectory, 'resources', 'skills');
  const staging = path.join(skillsRoot, `.staging-${randomBytes(8).toString('hex')}`);
  try {
    for (const file of normalised) {
      const target = path.join(staging, file.path);
      await mkdir(path.dirname(target), { recursive: true });
      await writeFile(target, file.content, { flag: 'wx' });
    }
    let catalog: Awaited<ReturnType<typeof loadSkills>>;
    try {
      catalog = await loadSkills({ roots: [staging] });
    } catch (error) {
      if (error instanceof InvalidSkillError) {
        throw new InvalidPackageError(
          error.problems.map((problem) => ({
            path: path.relative(staging, problem.path) || problem.path,
            message: problem.message,
          })),
        );
      }
      throw error;
    }
    const skill = catalog.skills[0];
    if (!skill || catalog.skills.length !== 1)
      throw new InvalidPackageError([{ path: '(package)', message: 'must contain exactly one skill' }]);
    const finalDirectory = path.join(skillsRoot, contentHash);
    if (existsSync(finalDirectory)) await rm(staging, { recursive: true, force: true });
    else await rename(staging, finalDirectory);
    return {
      storageRef: `skills/${contentHash}`,
      contentHash,
      name: skill.name,
      description: skill.description,
      fileCount: normalised.length,
    };
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
}
