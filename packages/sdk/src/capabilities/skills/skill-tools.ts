import { z } from 'zod';
import { listEntries, withDirectory } from '../../sandbox/confined-fs.js';
import { readViewFile } from '../../sandbox/file-tools.js';
import { resolveVirtualPath, type WorkspaceView } from '../../sandbox/workspace-view.js';
import { type Tool, tool } from '../tools/tool.js';
import type { Skill } from './skill.js';

const maximumReadBytes = 256 * 1024;

/**
 * The context section that lists the authorised skills (K-1): name, description and entry of each,
 * sorted by name so that the prompt prefix stays stable (N-4). Empty when there are none.
 */
export function skillsPromptSection(skills: readonly Pick<Skill, 'name' | 'description' | 'entry'>[]): string {
  if (skills.length === 0) return '';
  const lines = [
    '# Skills',
    'Skills are folders of instructions, scripts and resources for particular tasks. When a task matches a',
    "skill's description, read its entry file with read_skill before acting and follow it; read the other",
    'files it mentions only when you need them. Reading a file never runs it; run scripts only as the skill says.',
    '',
    ...skills.map((skill) => `- ${skill.name}: ${skill.description.replace(/\s+/g, ' ')} (entry: ${skill.entry})`),
  ];
  return lines.join('\n');
}

/**
 * The `read_skill` tool (progressive disclosure, K-1): reads a skill's `SKILL.md` or a file it
 * references, or lists a skill folder. Paths are confined to the skill folders, read-only, with
 * the same link- and traversal-refusing operations as the workspace file tools. It only reads.
 */
export function createReadSkillTool(skills: readonly Skill[]): Tool {
  const view: WorkspaceView = {
    scope: { sessionId: '', runId: '' },
    mounts: skills.map((skill) => ({
      kind: 'skill' as const,
      virtualPath: `/skills/${skill.name}`,
      base: skill.directory,
      baseSegments: [],
      writable: false,
    })),
  };
  return tool({
    name: 'read_skill',
    description:
      "Reads a skill's instructions or one of its files: /skills/<name>/SKILL.md, /skills/<name>/<file>, or just <name> for its " +
      'SKILL.md. A folder path lists the folder. It never runs anything.',
    parameters: z.object({ path: z.string().min(1).describe('/skills/<name>/SKILL.md, /skills/<name>/<file>, or <name>') }),
    execute: async ({ path }) => {
      const absolute = path.startsWith('/') ? path : `/skills/${path}`;
      const resolved = resolveVirtualPath(view, absolute);
      if (resolved.kind === 'mount-directory') return resolved.entries.map((name) => `${name}/`).join('\n');
      if (resolved.segments.length === 0 && !path.startsWith('/')) {
        return readText({ ...resolved, segments: ['SKILL.md'], virtualPath: `${resolved.mount.virtualPath}/SKILL.md` });
      }
      const listing = await withDirectory(resolved, async (directory) => listEntries(directory)).catch(() => undefined);
      if (listing) return listing.map((entry) => (entry.type === 'directory' ? `${entry.name}/` : entry.name)).join('\n');
      return readText(resolved);
    },
  });
}

async function readText(entry: Parameters<typeof readViewFile>[0]): Promise<string> {
  const { content, size, truncated } = await readViewFile(entry, maximumReadBytes);
  if (content.subarray(0, 8192).includes(0)) return `[binary file of ${size} bytes; not shown]`;
  return truncated
    ? `${content.toString('utf8')}\n[only the first ${content.length} of ${size} bytes were read]`
    : content.toString('utf8');
}
