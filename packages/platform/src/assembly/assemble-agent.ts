import path from 'node:path';
import {
  type Agent,
  type AgentDefinition,
  createAgent,
  createWorkspace,
  DEFINITION_FORMAT_VERSION,
  type Hook,
  type HookTrigger,
  InvalidDefinitionError,
  InvalidSkillError,
  loadSkills,
  type PermissionPolicy,
  type SkillCatalog,
  type Tool,
} from '@agentloom/sdk';
import { McpAuthorizationRequiredError } from '@agentloom/sdk/capabilities/mcp';
import { findEgressDenial } from '../adapters/outbound/index.js';
import { agentFileMounts } from '../domain/agent-files.js';
import type { AgentReleaseSnapshot, RoleSnapshot } from '../domain/release-snapshot.js';
import { releaseNeedsIsolation, releaseRunsCommands, releaseRunsScripts } from '../domain/run-requirements.js';
import { AssemblyError, type AssemblyPorts } from './assembly-ports.js';
import { buildPinnedHttpHook } from './http-hook.js';
import { pinnedHttpTool } from './http-tool.js';
import {
  McpSecretMissingError,
  type McpServerContent,
  McpSignInRequiredError,
  mcpServerOptions,
  sandboxedStdio,
} from './mcp-servers.js';
import { egressRefusalHookName, inputRefusalHook, unreachableHookName } from './mcp-stand-ins.js';
import { buildPinnedResource } from './pinned-resource.js';
import { releaseFallbackModels, releaseLanguageModel, releaseModelSettings } from './release-model.js';
import { pinnedRemoteAgent } from './remote-agents.js';
import { isolatingSandbox, sandboxUnavailableHookName } from './script-sandbox.js';

/** The registry name of the release's model. */
const modelName = 'release-model';

/** A role of the SDK definition: prompt and capability names. */
interface DefinitionRole {
  prompt: string;
  tools: string[];
  skills: string[];
  mcp?: { server: string }[];
}

/**
 * Turns a release snapshot and the resources it pins into an SDK agent (P-1.5 step 4–5)
 * through the SDK's public definition format: the snapshot becomes an `AgentDefinition` (data)
 * and the resolved model, tools, skills and workspace a `DefinitionRegistry`; `createAgent`
 * builds the agent (NOT-2: no SDK internals). Every problem is reported together as an
 * `AssemblyError`. Constructing the agent starts nothing (P-1.8): publish runs this as its dry
 * run, and a worker runs it before `agent.run({ runId })` (issue 14). MCP servers are the one
 * exception, and only for a run: with `ports.mcpConnections` each server a role uses is connected
 * here (its tools named `<server>__<tool>`) and the caller closes the set when the run ends;
 * without it (publish) they are left out of the definition and nothing connects. The agent's hook
 * resources become webhook `Hook`s in the registry, named by trigger point in the definition (K-4).
 */
export async function assembleAgent(snapshot: AgentReleaseSnapshot, ports: AssemblyPorts): Promise<Agent> {
  const issues: { path: string; message: string }[] = [];
  const apiKey = await ports.readActiveKey(snapshot.model.credential.connectionId);
  if (!apiKey && snapshot.model.provider !== 'offline-demo')
    issues.push({ path: 'model', message: 'the model connection has no active key' });
  const fallbackModels = await releaseFallbackModels(snapshot, ports.readActiveKey, ports.fetch, issues);
  // Memory (N-15) keeps its facts in the platform's fact store; a host without one cannot run it.
  if (snapshot.memory?.enabled && !ports.factStore) issues.push({ path: 'memory', message: 'this host has no fact store' });

  const tools = new Map<string, Tool>();
  const skillRoots = new Map<string, string>();
  /** The tools of each MCP server the roles use, connected once per build (by server name). */
  const mcpServers: Record<string, readonly Tool[]> = {};
  /** Why the egress policy refused MCP servers at run start (P-15.1): such a run is refused at its input. */
  const egressRefusals: string[] = [];
  /** MCP servers still unreachable at the run's last attempt: such a run is refused at its input too. */
  const unreachable: string[] = [];
  const connectMcp = async (rolePath: string, pinned: NonNullable<RoleSnapshot['mcpServers']>[number]) => {
    const connections = ports.mcpConnections;
    if (Object.hasOwn(mcpServers, pinned.name)) return;
    const content = (await ports.readResourceVersion(pinned.resourceId, pinned.version)).content as McpServerContent;
    try {
      // Secrets are resolved even when nothing connects (publish), so a missing one refuses the publish.
      const options = await mcpServerOptions(pinned.name, content, ports, { resourceId: pinned.resourceId });
      mcpServers[pinned.name] = connections ? (await connections.connect(sandboxedStdio(options, snapshot, ports))).tools : [];
    } catch (error) {
      // Not signed in (or the sign-in lapsed): a publish goes on (someone connects it later), a run is refused at its input.
      if (error instanceof McpSignInRequiredError || McpAuthorizationRequiredError.isInstance(error)) {
        mcpServers[pinned.name] = [];
        if (connections) unreachable.push(new McpSignInRequiredError(pinned.name).message);
        return;
      }
      const refusal = findEgressDenial(error);
      if (refusal) {
        mcpServers[pinned.name] = [];
        egressRefusals.push(`MCP server "${pinned.name}": ${refusal.message}`);
        return;
      }
      // A missing secret is a configuration problem; an unreachable server is the run's to retry,
      // until its last attempt, which ends the run with a typed reason instead.
      if (!(error instanceof McpSecretMissingError)) {
        if (!connections?.finalAttempt) throw error;
        mcpServers[pinned.name] = [];
        unreachable.push(`MCP server "${pinned.name}" could not be reached: ${(error as Error).message}`);
        return;
      }
      issues.push({ path: `${rolePath}.mcpServers`, message: error.message });
    }
  };
  const defineRole = async (rolePath: string, role: RoleSnapshot): Promise<DefinitionRole> => {
    let prompt = '';
    if ('text' in role.prompt) prompt = role.prompt.text;
    else {
      const version = await ports.readResourceVersion(role.prompt.resourceId, role.prompt.version);
      prompt = (version.content as { text?: string } | null)?.text ?? '';
      if (!prompt) issues.push({ path: `${rolePath}.prompt`, message: 'the pinned prompt version has no text' });
    }
    for (const [index, pinned] of role.tools.entries()) {
      if (tools.has(pinned.name)) continue;
      const built = await buildPinnedResource(pinned, ports, `${rolePath}.tools.${index}`, issues, pinnedHttpTool);
      if (built) tools.set(pinned.name, built);
    }
    // A remote agent is a tool of the role under its resource name (N-13): a planner delegates to it like to an executor.
    for (const [index, pinned] of (role.remoteAgents ?? []).entries()) {
      if (tools.has(pinned.name)) continue;
      const built = await buildPinnedResource(pinned, ports, `${rolePath}.remoteAgents.${index}`, issues, pinnedRemoteAgent);
      if (built) tools.set(pinned.name, built);
    }
    for (const skill of role.skills) skillRoots.set(skill.name, path.join(ports.resourcesDirectory, skill.storageRef));
    for (const server of role.mcpServers ?? []) await connectMcp(rolePath, server);
    const mcp = ports.mcpConnections ? (role.mcpServers ?? []).map((server) => ({ server: server.name })) : [];
    return {
      prompt,
      tools: [...role.tools, ...(role.remoteAgents ?? [])].map((pinned) => pinned.name),
      skills: role.skills.map((skill) => skill.name),
      ...(mcp.length > 0 ? { mcp } : {}),
    };
  };

  const entry = await defineRole(snapshot.mode === 'react' ? 'entry' : 'planner', snapshot.entry);
  const executors = [];
  for (const [index, role] of snapshot.executors.entries()) {
    executors.push({
      name: role.name,
      description: role.description,
      ...(await defineRole(`executors.${index}`, role)),
      // Its tasks run beside the planner (N-7, ADR 0033); snapshots older than the switch have none.
      ...(role.background ? { background: true } : {}),
    });
  }

  // Hooks belong to the agent (P-4.11); their order in the snapshot is the chain order per trigger (K-8).
  const hookRegistry: Record<string, Hook> = {};
  const hookNames: Partial<Record<HookTrigger, string[]>> = {};
  for (const [index, pinned] of (snapshot.hooks ?? []).entries()) {
    const built = await buildPinnedHttpHook(pinned, ports, `hooks.${index}`, issues);
    if (!built) continue;
    hookRegistry[pinned.name] = built.hook;
    hookNames[built.trigger] = [...(hookNames[built.trigger] ?? []), pinned.name];
  }
  // Commands and the model's scripts run only in bubblewrap (NOT-18, ADR 0032). A worker that
  // cannot isolate never claims such a run; should one find bubblewrap broken anyway, the run is
  // refused at its input (`sandbox-unavailable`) rather than run anything unisolated.
  const isolation = releaseNeedsIsolation(snapshot) ? isolatingSandbox(ports.bubblewrap) : undefined;
  const sandboxRefusals = isolation?.unavailable && ports.mcpConnections ? [isolation.unavailable] : [];
  // First in the chain: a deny is final (K-5), so the run ends `blocked` with the hook's name as
  // its code, `egress-denied`, `mcp-unreachable` or `sandbox-unavailable`.
  for (const [name, reasons] of [
    [unreachableHookName, unreachable],
    [egressRefusalHookName, egressRefusals],
    [sandboxUnavailableHookName, sandboxRefusals],
  ] as const) {
    if (reasons.length === 0) continue;
    hookRegistry[name] = inputRefusalHook(name, reasons) as Hook;
    hookNames.UserPromptSubmit = [name, ...(hookNames.UserPromptSubmit ?? [])];
  }

  let skills: SkillCatalog | undefined;
  if (skillRoots.size > 0) {
    try {
      skills = await loadSkills({ roots: [...new Set(skillRoots.values())] });
    } catch (error) {
      if (!(error instanceof InvalidSkillError)) throw error;
      for (const problem of error.problems) issues.push({ path: 'skills', message: problem.message });
    }
  }
  if (issues.length > 0) throw new AssemblyError(issues);

  const roles = [snapshot.entry, ...snapshot.executors];
  const wantsFiles = roles.some((role) => role.builtIn.length > 0 || role.skills.length > 0);
  const wantsCommands = releaseRunsCommands(snapshot);
  const workspace = wantsFiles
    ? createWorkspace({
        root: ports.fileRoot,
        persistent: snapshot.environment.persistentSandbox,
        skills: (skills?.skills ?? []).map((skill) => ({ name: skill.name, directory: skill.directory })),
        // The agent's wiki and business files (P-12.2), managed on the Files tab, read-only in runs.
        mounts: agentFileMounts(ports.fileRoot),
        ...(wantsCommands && isolation ? { sandbox: isolation.sandbox } : {}),
      })
    : undefined;

  const model = releaseLanguageModel(snapshot, apiKey, ports.fetch);
  const modelSettings = releaseModelSettings(snapshot);
  // The definition's data form of the SDK's `PermissionPolicy` (N-1): the SDK checks every call against it.
  const permissions: AgentDefinition['permissions'] = snapshot.permissions
    ? ({
        default: snapshot.permissions.default,
        rules: snapshot.permissions.rules.map((rule) => ({
          tool: rule.tool,
          decision: rule.decision,
          ...(rule.arguments ? { arguments: rule.arguments } : {}),
          ...(rule.reason ? { reason: rule.reason } : {}),
        })),
      } satisfies PermissionPolicy)
    : undefined;
  // The switch is the platform's; the SDK definition has its own field for it (N-15).
  const { codeOrchestration: _switch, ...execution } = snapshot.execution;
  const base = {
    formatVersion: DEFINITION_FORMAT_VERSION as 1,
    kind: 'agent' as const,
    name: snapshot.name,
    description: snapshot.description,
    model: modelName,
    ...(Object.keys(fallbackModels).length > 0 ? { fallbackModels: Object.keys(fallbackModels) } : {}),
    ...(snapshot.memory?.enabled
      ? {
          memory: {
            enabled: true,
            ...(snapshot.memory.budgetCharacters !== undefined ? { budgetCharacters: snapshot.memory.budgetCharacters } : {}),
          },
        }
      : {}),
    ...(Object.keys(modelSettings).length > 0 ? { modelSettings } : {}),
    execution,
    ...codeOrchestrationOf(snapshot),
    // The window frozen at publish lets the SDK compress and checkpoint (C-2): without it a
    // session's every run is sent, and read, in full.
    context: {
      ...snapshot.context,
      ...(snapshot.model.contextWindow !== undefined ? { windowTokens: snapshot.model.contextWindow } : {}),
    },
    variables: { ...snapshot.variables },
    ...(permissions ? { permissions } : {}),
    ...(Object.keys(hookNames).length > 0 ? { hooks: hookNames } : {}),
    ...(ports.leaseMs !== undefined ? { leaseMs: ports.leaseMs } : {}),
  };
  const definition: AgentDefinition =
    snapshot.mode === 'react'
      ? { ...base, mode: 'react', ...entry }
      : { ...base, mode: 'plan-executor', planner: entry, executors };
  try {
    return createAgent(definition, {
      models: { [modelName]: model, ...fallbackModels },
      ...(snapshot.memory?.enabled && ports.factStore ? { factStore: ports.factStore } : {}),
      tools: [...tools.values()],
      ...(Object.keys(hookRegistry).length > 0 ? { hooks: hookRegistry } : {}),
      ...(ports.mcpConnections && Object.keys(mcpServers).length > 0 ? { mcpServers } : {}),
      ...(skills ? { skills } : {}),
      ...(workspace ? { workspace } : {}),
      ...(releaseRunsScripts(snapshot) && isolation ? { sandbox: isolation.sandbox } : {}),
      ...(ports.store ? { store: ports.store } : {}),
    });
  } catch (error) {
    if (error instanceof InvalidDefinitionError)
      throw new AssemblyError(error.problems.map((problem) => ({ path: problem.path, message: problem.message })));
    throw error;
  }
}

/**
 * The SDK definition's `codeOrchestration` of a release (N-15, ADR 0032): absent when off, `true`
 * when on with the SDK's limits, else the limits set. The sandbox goes in the registry, never here.
 */
function codeOrchestrationOf(snapshot: AgentReleaseSnapshot): Pick<AgentDefinition, 'codeOrchestration'> {
  const setting = snapshot.execution.codeOrchestration;
  if (!setting?.enabled) return {};
  const { enabled: _enabled, ...limits } = setting;
  return { codeOrchestration: Object.keys(limits).length > 0 ? limits : true };
}
