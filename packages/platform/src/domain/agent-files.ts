import path from 'node:path';

/**
 * The two managed areas of an agent's file root (P-12.2): `wiki/` (reference pages) and `files/`
 * (business files). People manage them through `/apps/{appId}/files/{area}/…` and the console's
 * Files tab; runs see them read-only at `/mounts/wiki` and `/mounts/files`.
 */
export const agentFileAreas = ['wiki', 'files'] as const;

/** One managed area of an agent's file root. */
export type AgentFileArea = (typeof agentFileAreas)[number];

/** The host directory of an area below an app's file root. */
export function agentFileAreaDirectory(fileRoot: string, area: AgentFileArea): string {
  return path.join(fileRoot, area);
}

/** The workspace mounts that show the areas to a run, read-only (`/mounts/<area>`). */
export function agentFileMounts(fileRoot: string): { name: AgentFileArea; directory: string; writable: false }[] {
  return agentFileAreas.map((area) => ({ name: area, directory: agentFileAreaDirectory(fileRoot, area), writable: false }));
}
