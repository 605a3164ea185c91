/**
 * The W-7 workflow: input → a document query capability → two document-processing agents in
 * parallel → join → a Plan–Executor agent writes the report → a tool saves it → output. The
 * query is a plain tool here; an MCP tool is a `Tool` too and would take its place unchanged.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  Agent,
  appendList,
  createWorkflow,
  END,
  type LanguageModel,
  lastValue,
  type RunStore,
  START,
  type StateDefinition,
  tool,
  type Workflow,
  WorkflowBuilder,
} from '@agentloom/sdk';
import { z } from 'zod';

/** The summarising agent's role (its prompt also identifies it to the offline model). */
export const SUMMARIZER_PROMPT = 'You summarise business documents in three sentences or fewer, citing the figures.';
/** The risk analyst's role: it uses its own tool, inside its own run. */
export const RISK_PROMPT =
  'You find the risks and deadlines in business documents. Use the find_dates tool, then list each risk on its own line.';
/** The report writer's planner: a Plan–Executor agent as one workflow node. */
export const PLANNER_PROMPT =
  'You write short market reports. Delegate one section per topic to section_writer (the summary and the risks), then answer with the whole report in Markdown.';
/** The report writer's executor role, one task per section. */
export const SECTION_PROMPT =
  'You write one section of a report, in Markdown, from the material you are given. Start with a "## " heading.';

/** The workflow's shared state (W-2): business data only; each agent's context stays private. */
export const reportState = {
  question: lastValue(z.string()),
  documents: lastValue(z.string()),
  analyses: appendList(z.string()),
  report: lastValue(z.string()),
  savedTo: lastValue(z.string()),
};

/** Options of the example workflow: where it keeps runs, which model, where documents are read and reports written. */
export interface ReportWorkflowOptions {
  store: RunStore;
  model: LanguageModel;
  documentsDirectory: string;
  outputDirectory: string;
}

/** The workflow's tools on real files: the document query, the risk analyst's date finder, the report saver. */
export function createReportTools(options: Pick<ReportWorkflowOptions, 'documentsDirectory' | 'outputDirectory'>) {
  const searchDocuments = tool({
    name: 'search_documents',
    description: 'Returns the documents whose text mentions every word of the query.',
    parameters: z.object({ query: z.string().min(1) }),
    execute: ({ query }) => {
      const words = query.toLowerCase().split(/\W+/).filter(Boolean);
      return readdirSync(options.documentsDirectory)
        .sort()
        .map((name) => readFileSync(join(options.documentsDirectory, name), 'utf8').trim())
        .filter((text) => words.every((word) => text.toLowerCase().includes(word)))
        .join('\n\n');
    },
  });
  const findDates = tool({
    name: 'find_dates',
    description: 'Lists the sentences of a text that name a month or a number of weeks.',
    parameters: z.object({ text: z.string() }),
    execute: ({ text }) =>
      text
        .split(/(?<=\.)\s+|\n+/)
        .filter((sentence) => !sentence.startsWith('#'))
        .filter((sentence) =>
          /(January|February|March|April|May|June|July|August|September|October|November|December|weeks?)/.test(sentence),
        )
        .join('\n'),
  });
  const saveReport = tool({
    name: 'save_report',
    description: 'Saves a report as a Markdown file and returns its path.',
    parameters: z.object({ title: z.string(), markdown: z.string().min(1) }),
    execute: ({ title, markdown }, context) => {
      // The task id is stable across recovery, so a re-run overwrites the same file.
      const path = join(options.outputDirectory, `${title}-${context.operationId.replaceAll('/', '-')}.md`);
      writeFileSync(path, `${markdown}\n`);
      return path;
    },
  });
  return { searchDocuments, findDates, saveReport };
}

/** Builds the agents and the workflow in code, on one store (both scopes live in it, R-6). */
export function createReportWorkflow(options: ReportWorkflowOptions): Workflow<typeof reportState> {
  const { store, model } = options;
  const { searchDocuments, findDates, saveReport } = createReportTools(options);
  const summarizer = new Agent({ name: 'summarizer', mode: 'react', model, store, prompt: SUMMARIZER_PROMPT });
  const riskAnalyst = new Agent({ name: 'risk-analyst', mode: 'react', model, store, prompt: RISK_PROMPT, tools: [findDates] });
  const reportWriter = new Agent({
    name: 'report-writer',
    mode: 'plan-executor',
    model,
    store,
    planner: { prompt: PLANNER_PROMPT },
    executors: [
      { name: 'section_writer', description: 'Writes one report section from the material given.', prompt: SECTION_PROMPT },
    ],
    execution: { parallel: true, maxParallelExecutors: 2 },
  });

  return new WorkflowBuilder({ name: 'market-report', state: reportState })
    .addCapabilityNode('query', searchDocuments, { input: { query: 'question' }, output: 'documents' })
    .addAgentNode('summarize', summarizer, { input: 'documents', output: 'analyses' })
    .addAgentNode('find-risks', riskAnalyst, { input: 'documents', output: 'analyses' })
    .addAgentNode('write-report', reportWriter, {
      input: (state) => `Write a report on "${state.question}" from these analyses:\n\n${state.analyses.join('\n\n')}`,
      output: 'report',
    })
    .addCapabilityNode('save', saveReport, {
      input: { title: { value: 'market-report' }, markdown: 'report' },
      output: 'savedTo',
    })
    .addEdge(START, 'query')
    .addEdge('query', 'summarize')
    .addEdge('query', 'find-risks')
    .addEdge(['summarize', 'find-risks'], 'write-report')
    .addEdge('write-report', 'save')
    .addEdge('save', END)
    .compile({ store, maxLoops: 40, timeoutMs: 10 * 60_000, output: ['report', 'savedTo'] });
}

/** The same workflow as data, its three agents inline: `definitions/market-report.json`. */
export const reportDefinition: unknown = JSON.parse(
  readFileSync(new URL('../definitions/market-report.json', import.meta.url), 'utf8'),
);

/**
 * Builds the same workflow from its JSON definition; the registry resolves the model and tool
 * names, and its store holds the workflow and its inline agents.
 */
export function createReportWorkflowFromDefinition(options: ReportWorkflowOptions): Workflow<StateDefinition> {
  const { searchDocuments, findDates, saveReport } = createReportTools(options);
  return createWorkflow(reportDefinition, {
    models: { default: options.model },
    tools: [searchDocuments, findDates, saveReport],
    store: options.store,
  });
}
