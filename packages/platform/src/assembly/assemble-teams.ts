import { createTeam, InvalidDefinitionError, type LanguageModel, type RunStore, type Team } from '@agentloom/sdk';
import { ModelUnavailableError } from '../adapters/models/index.js';
import type { AgentReleaseSnapshot, WorkflowReleaseSnapshot } from '../domain/release-snapshot.js';
import { teamDefinitionOf } from '../domain/workflow-team.js';
import type { AssemblyPorts } from './assembly-ports.js';
import { releaseLanguageModel, releaseModelSettings } from './release-model.js';

/** What building a workflow's teams reads: each member's pinned agent release with its app's ports. */
export interface TeamAssemblyPorts {
  readAgentRelease(releaseId: string): Promise<{ snapshot: AgentReleaseSnapshot; ports: AssemblyPorts }>;
  /** The workflow's store: a team node's steps are tasks of the workflow run (R-6). */
  store: RunStore;
  fetch: typeof globalThis.fetch;
}

/**
 * Builds the teams of a workflow release (N-12) through the SDK's `createTeam`: each member is
 * the model of its pinned agent release (built from the connection, its key resolved now, D-P3)
 * with that release's entry prompt as its instructions; the member's tools and sub-agents are
 * not a team member's (a member speaks, it does not act). Every problem is pushed to `issues`
 * with its path under `bindings.teams.<name>`; building starts nothing.
 */
export async function assembleTeams(
  snapshot: WorkflowReleaseSnapshot,
  ports: TeamAssemblyPorts,
  issues: { path: string; message: string }[],
): Promise<Record<string, Team>> {
  const teams: Record<string, Team> = {};
  for (const [name, pinned] of Object.entries(snapshot.teams ?? {})) {
    const models: Record<string, LanguageModel> = {};
    const instructions = new Map<string, string>();
    for (const [index, member] of pinned.members.entries()) {
      const path = `bindings.teams.${name}.members.${index}`;
      const release = await ports.readAgentRelease(member.releaseId);
      try {
        const built = await memberOf(release.snapshot, release.ports, ports);
        models[member.name] = built.model;
        instructions.set(member.name, built.instructions);
      } catch (error) {
        if (!(error instanceof ModelUnavailableError)) throw error;
        issues.push({ path, message: `agent release ${member.version}: ${error.message}` });
      }
    }
    if (Object.keys(models).length < pinned.members.length) continue;
    try {
      const definition = teamDefinitionOf(name, pinned, (member) => instructions.get(member) || '-');
      teams[name] = createTeam(definition, { models, store: ports.store });
    } catch (error) {
      if (!(error instanceof InvalidDefinitionError)) throw error;
      for (const problem of error.problems) {
        const [head, index, field] = problem.path.split('.');
        const where =
          head === 'members' && field === 'model'
            ? `members.${index}`
            : problem.path.replace(/^topology\.(.*)\.model$/, 'topology.$1 (a model names a member)');
        issues.push({ path: `bindings.teams.${name}${where ? `.${where}` : ''}`, message: problem.message });
      }
    }
  }
  return teams;
}

/** A member's model and instructions from its agent release: the entry role's model and prompt; requests through `outbound`. */
async function memberOf(
  snapshot: AgentReleaseSnapshot,
  ports: AssemblyPorts,
  outbound: Pick<TeamAssemblyPorts, 'fetch'>,
): Promise<{ model: LanguageModel; instructions: string }> {
  const apiKey = await ports.readActiveKey(snapshot.model.credential.connectionId);
  // The workflow's outbound module (P-15.1): every member's model request goes through it.
  const model = releaseLanguageModel(snapshot, apiKey, outbound.fetch, releaseModelSettings(snapshot));
  const prompt = snapshot.entry.prompt;
  let instructions = '';
  if ('text' in prompt) instructions = prompt.text;
  else {
    const version = await ports.readResourceVersion(prompt.resourceId, prompt.version);
    instructions = (version.content as { text?: string } | null)?.text ?? '';
  }
  return { model, instructions };
}
