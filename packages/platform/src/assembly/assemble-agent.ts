import path from 'node:path';
import {
  Agent,
  type AgentConfig,
  BubblewrapSandbox,
  createWorkspace,
  InvalidConfigurationError,
  InvalidSkillError,
  loadSkills,
  type SkillCatalog,
  type Tool,
} from '@agentloom/sdk';
import type { AgentReleaseSnapshot, RoleSnapshot } from '../domain/release-snapshot.js';
import { buildLanguageModel } from '../models/index.js';
import { AssemblyError, type AssemblyPorts } from './assembly-ports.js';
import { buildHttpTool, type HttpToolContent } from './http-tool.js';

interface BuiltRole {
  prompt: string;
  tools: Tool[];
  skills: SkillCatalog | undefined;
}

/**
 * Turns a release snapshot and the resources it pins into an SDK agent (P-1.5 step 4–5),
 * through the SDK's public API only (NOT-2). Every problem found is reported together as an
 * `AssemblyError`; an SDK configuration error is translated into the same. Constructing the
 * agent starts nothing (P-1.8): this is what publish runs as its dry run, and what a worker
 * runs before `agent.run({ runId })` (issue 14).
 */
export async function assembleAgent(snapshot: AgentReleaseSnapshot, ports: AssemblyPorts): Promise<Agent> {
  const issues: { path: string; message: string }[] = [];
  const apiKey = await ports.readActiveKey(snapshot.model.credential.connectionId);
  if (!apiKey && snapshot.model.provider !== 'offline-demo')
    issues.push({ path: 'model', message: 'the model connection has no active key' });

  const buildRole = async (rolePath: string, role: RoleSnapshot): Promise<BuiltRole> => {
    let prompt = '';
    if ('text' in role.prompt) prompt = role.prompt.text;
    else {
      const version = await ports.readResourceVersion(role.prompt.resourceId, role.prompt.version);
      prompt = (version.content as { text?: string } | null)?.text ?? '';
      if (!prompt) issues.push({ path: `${rolePath}.prompt`, message: 'the pinned prompt version has no text' });
    }
    const tools: Tool[] = [];
    for (const [index, pinned] of role.tools.entries()) {
      const version = await ports.readResourceVersion(pinned.resourceId, pinned.version);
      const content = version.content as HttpToolContent;
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(content.request.headers ?? {})) {
        if (typeof value === 'string') headers[name] = value;
        else {
          const secret = await ports.readSecret(value.secret);
          if (secret === undefined)
            issues.push({ path: `${rolePath}.tools.${index}`, message: `the secret "${value.secret}" does not exist` });
          else headers[name] = secret;
        }
      }
      try {
        tools.push(buildHttpTool(pinned.name, content, headers, ports.fetch));
      } catch (error) {
        issues.push({ path: `${rolePath}.tools.${index}`, message: `cannot build the tool: ${(error as Error).message}` });
      }
    }
    let skills: SkillCatalog | undefined;
    if (role.skills.length > 0) {
      try {
        skills = await loadSkills({
          roots: role.skills.map((skill) => path.join(ports.resourcesDirectory, skill.storageRef)),
          only: role.skills.map((skill) => skill.name),
        });
      } catch (error) {
        if (!(error instanceof InvalidSkillError)) throw error;
        for (const problem of error.problems) issues.push({ path: `${rolePath}.skills`, message: problem.message });
      }
    }
    return { prompt, tools, skills };
  };

  const entry = await buildRole(snapshot.mode === 'react' ? 'entry' : 'planner', snapshot.entry);
  const executors = [];
  for (const [index, role] of snapshot.executors.entries())
    executors.push({ role, built: await buildRole(`executors.${index}`, role) });

  const roles = [snapshot.entry, ...snapshot.executors];
  const wantsFiles = roles.some((role) => role.builtIn.length > 0 || role.skills.length > 0);
  const wantsCommands = roles.some((role) => role.builtIn.includes('run_command'));
  if (issues.length > 0) throw new AssemblyError(issues);

  const allSkills = [entry.skills, ...executors.map((executor) => executor.built.skills)].flatMap(
    (catalog) => catalog?.skills ?? [],
  );
  const uniqueSkills = [
    ...new Map(allSkills.map((skill) => [skill.name, { name: skill.name, directory: skill.directory }])).values(),
  ];
  const workspace = wantsFiles
    ? createWorkspace({
        root: ports.fileRoot,
        persistent: snapshot.environment.persistentSandbox,
        skills: uniqueSkills,
        ...(wantsCommands ? { sandbox: new BubblewrapSandbox() } : {}),
      })
    : undefined;

  const model = buildLanguageModel({
    provider: snapshot.model.provider,
    baseUrl: snapshot.model.baseUrl,
    settings: snapshot.model.settings,
    modelId: snapshot.model.modelId,
    apiKey,
    ...(ports.fetch ? { fetch: ports.fetch } : {}),
  });
  const modelSettings = {
    ...(snapshot.model.thinking ? { thinking: snapshot.model.thinking } : {}),
    ...(snapshot.model.maxOutputTokens ? { maxOutputTokens: snapshot.model.maxOutputTokens } : {}),
  };
  const base = {
    name: snapshot.name,
    description: snapshot.description,
    model,
    ...(Object.keys(modelSettings).length > 0 ? { modelSettings } : {}),
    execution: snapshot.execution,
    context: snapshot.context,
    variables: snapshot.variables,
    ...(workspace ? { workspace } : {}),
    ...(ports.store ? { store: ports.store } : {}),
  };
  const config: AgentConfig =
    snapshot.mode === 'react'
      ? { ...base, mode: 'react', prompt: entry.prompt, tools: entry.tools, ...(entry.skills ? { skills: entry.skills } : {}) }
      : {
          ...base,
          mode: 'plan-executor',
          planner: { prompt: entry.prompt, tools: entry.tools, ...(entry.skills ? { skills: entry.skills } : {}) },
          executors: executors.map(({ role, built }) => ({
            name: role.name,
            description: role.description,
            prompt: built.prompt,
            tools: built.tools,
            ...(built.skills ? { skills: built.skills } : {}),
          })),
        };
  try {
    return new Agent(config);
  } catch (error) {
    if (error instanceof InvalidConfigurationError) {
      throw new AssemblyError(error.issues.map((issue) => ({ path: issue.path, message: issue.message })));
    }
    throw error;
  }
}
