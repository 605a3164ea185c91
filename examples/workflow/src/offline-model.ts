/**
 * The offline model of the example: every role answers as a pure function of its own context,
 * as a real model would from the same prompt and messages.
 */
import { type ModelRequest, ScriptedModel, type ScriptedReply } from '@agentloom/sdk/testing';
import { PLANNER_PROMPT, RISK_PROMPT, SECTION_PROMPT, SUMMARIZER_PROMPT } from './report-workflow.js';

const toolResults = (request: ModelRequest) => request.messages.filter((message) => message.role === 'tool');
const firstText = (request: ModelRequest) => request.messages[0]?.content ?? '';
const sentences = (text: string) =>
  text.split(/(?<=\.)\s+/).filter((sentence) => /\d/.test(sentence) && !sentence.startsWith('#'));

/** How long each answer of the two analysis agents takes, in milliseconds. */
const analysisMs = 20;

/** The scripted model that plays every role of the example offline. */
export function offlineModel(): ScriptedModel {
  return new ScriptedModel({
    respond: (request): ScriptedReply => {
      const results = toolResults(request);
      switch (request.system) {
        // The two analyses take a moment, as a real model's answers do, so their agents' runs
        // overlap in time (what the example checks) however the event loop schedules them.
        case SUMMARIZER_PROMPT:
          return {
            text: `Summary: ${sentences(firstText(request).replace(/^# .*$/gm, ''))
              .slice(0, 3)
              .join(' ')}`,
            delayMs: analysisMs,
          };
        case RISK_PROMPT:
          if (results.length === 0)
            return { toolCalls: [{ name: 'find_dates', arguments: { text: firstText(request) } }], delayMs: analysisMs };
          return {
            text: `Risks:\n${(results[0]?.content ?? '')
              .split('\n')
              .map((line) => `- ${line}`)
              .join('\n')}`,
            delayMs: analysisMs,
          };
        case PLANNER_PROMPT: {
          if (results.length === 0) {
            const analyses = firstText(request).split('\n\n').slice(1);
            return {
              toolCalls: analyses.map((material) => ({
                name: 'section_writer',
                arguments: { task: `Write the ${material.startsWith('Risks') ? 'risks' : 'summary'} section.`, material },
              })),
            };
          }
          return { text: `# Heat pump market report\n\n${results.map((message) => message.content).join('\n\n')}` };
        }
        case SECTION_PROMPT: {
          const topic = /Write the (\w+) section/.exec(firstText(request))?.[1] ?? 'notes';
          const material = firstText(request).split('Material:\n')[1] ?? '';
          const body = material.replace(/^(Summary: |Risks:\n)/, '');
          return { text: `## ${topic[0]?.toUpperCase()}${topic.slice(1)}\n${body}` };
        }
        default:
          return { text: 'I was not given a role I know.' };
      }
    },
  });
}
