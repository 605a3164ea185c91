/**
 * The example team: a planner that delegates research on energy sources to `researcher`
 * executors (in parallel) and the summary to a `summarizer` whose output must match a schema.
 * Researchers read a real local knowledge file through a tool.
 */
import { readFileSync } from 'node:fs';
import { Agent, createAgent, type LanguageModel, type RunStore, type Tool, tool } from '@agentloom/sdk';
import { type ModelRequest, ScriptedModel, type ScriptedReply } from '@agentloom/sdk/testing';
import { z } from 'zod';

export const PLANNER_PROMPT = 'You lead a small research team. Delegate research, then the summary, then answer the user.';
export const RESEARCHER_PROMPT = 'You research one topic with the search_notes tool and report the facts you found.';
export const SUMMARIZER_PROMPT = 'You turn research notes into a short brief, as JSON.';

/** The summary contract the summarizer must meet (C-13). */
export const briefSchema = z.strictObject({ headline: z.string().min(1), points: z.array(z.string()).min(1) });

/** Options of the example team: where it keeps runs, which model, which knowledge file. */
export interface TeamOptions {
  store: RunStore;
  model: LanguageModel;
  knowledgePath: string;
}

/** The team's one tool: it reads a section of the real knowledge file. */
export function createTeamTools(options: Pick<TeamOptions, 'knowledgePath'>): Tool[] {
  const searchNotes = tool({
    name: 'search_notes',
    description: 'Returns the section of the team knowledge base about a topic (solar, wind, hydro).',
    parameters: z.object({ topic: z.string() }),
    execute: ({ topic }) => {
      const sections = readFileSync(options.knowledgePath, 'utf8').split(/^## /m);
      const section = sections.find((text) => text.toLowerCase().startsWith(topic.toLowerCase()));
      return section ? section.slice(section.indexOf('\n') + 1).trim() : `nothing about ${topic}`;
    },
  });
  return [searchNotes];
}

/** Builds the team in code, on a store and model. */
export function createTeam(options: TeamOptions): Agent {
  return new Agent({
    name: 'energy-brief',
    mode: 'plan-executor',
    model: options.model,
    store: options.store,
    planner: { prompt: PLANNER_PROMPT },
    executors: [
      {
        name: 'researcher',
        description: 'Researches one energy source.',
        prompt: RESEARCHER_PROMPT,
        tools: createTeamTools(options),
      },
      {
        name: 'summarizer',
        description: 'Writes the final brief from research notes given as material.',
        prompt: SUMMARIZER_PROMPT,
        outputSchema: briefSchema,
      },
    ],
    execution: { parallel: true, maxParallelExecutors: 2 },
  });
}

/** The same team as data: `definitions/energy-brief.json`. */
export const teamDefinition: unknown = JSON.parse(
  readFileSync(new URL('../definitions/energy-brief.json', import.meta.url), 'utf8'),
);

/** Builds the same team from its JSON definition; the registry resolves the model and tool names. */
export function createTeamFromDefinition(options: TeamOptions): Agent {
  return createAgent(teamDefinition, {
    models: { default: options.model },
    tools: createTeamTools(options),
    store: options.store,
  });
}

const toolResults = (request: ModelRequest) => request.messages.filter((message) => message.role === 'tool');

/** The offline model: each role answers as a pure function of its own context. */
export function offlineModel(): ScriptedModel {
  return new ScriptedModel({
    respond: (request): ScriptedReply => {
      const results = toolResults(request);
      if (request.system === PLANNER_PROMPT) {
        if (results.length === 0) {
          return {
            text: 'Two researchers in parallel, then a summary.',
            toolCalls: [
              { name: 'researcher', arguments: { task: 'Research solar power.', constraints: 'Use the notes only.' } },
              { name: 'researcher', arguments: { task: 'Research wind power.', constraints: 'Use the notes only.' } },
            ],
          };
        }
        if (results.length === 2) {
          return {
            toolCalls: [
              {
                name: 'summarizer',
                arguments: { task: 'Write the brief.', material: results.map((message) => message.content).join('\n') },
              },
            ],
          };
        }
        const brief = briefSchema.parse(JSON.parse(results[2]?.content ?? '{}'));
        return { text: `${brief.headline}\n- ${brief.points.join('\n- ')}` };
      }
      if (request.system === RESEARCHER_PROMPT) {
        const topic = /Research (\w+) power/.exec(request.messages[0]?.content ?? '')?.[1] ?? 'unknown';
        if (results.length === 0) return { toolCalls: [{ name: 'search_notes', arguments: { topic } }] };
        return { text: `${topic}: ${(results[0]?.content ?? '').split('.')[0]}.` };
      }
      const material = (request.messages[0]?.content ?? '').split('Material:\n')[1] ?? '';
      return {
        text: JSON.stringify({ headline: 'Solar and wind, in brief', points: material.split('\n').filter(Boolean) }),
      };
    },
  });
}
