import type { Message } from '../../core/messages.js';
import { NodeFailure } from '../../engine/workflow/nodes/workflow-node.js';
import type { TeamEventPayload } from '../../engine/workflow/team-events.js';
import type { ToolDefinition } from '../../model/language-model.js';
import { callTeamModel, memberSystem, usageOf } from '../model-turn.js';
import type { BoardTask, Mail, TeamState, TeamUpdate } from '../team-state.js';
import type { StepScope, Topology, TopologyIssue } from '../topology.js';

/** One task of the board as defined. */
export interface BoardTaskDefinition {
  id: string;
  description: string;
  /** Tasks that must be done before this one can be claimed. */
  dependsOn?: readonly string[];
  /** The only member that may claim it; default: any member, in turn. */
  assignee?: string;
  /** Claiming it needs the user's approval, asked through the run (an interrupt), never a peer. */
  requiresApproval?: boolean;
}

/** Options of the `taskBoard` topology. */
export interface TaskBoardOptions {
  tasks: readonly BoardTaskDefinition[];
}

/** The tool a member uses to write to another member's mailbox. */
export const SEND_MESSAGE_TOOL = 'send_message';

/** What the user answers to a claim that needs approval. */
export interface ClaimApproval {
  approved: boolean;
}

/**
 * The `taskBoard` topology (N-12, Claude Code's shared task list): a board of tasks with
 * dependencies that members claim and do, and a mailbox per member. A task is claimable only when
 * every task it depends on is done; the claim is written with the step that made it (one journal
 * entry), so it is exclusive and survives a crash — a resumed run finds the task claimed by the
 * same member and never claims it again. A member writes to another's mailbox with the
 * `send_message` tool; mail is shown to its receiver as quoted data and carries no authority: a
 * task that needs approval waits for the user's answer through the run (`resume`), and no
 * message, whatever it says, answers it. The team ends `completed` when no task can be claimed.
 */
export function taskBoard(options: TaskBoardOptions): Topology {
  const tasks = new Map(options.tasks.map((task) => [task.id, task]));
  return {
    kind: 'task-board',
    validate(members) {
      const issues: TopologyIssue[] = [];
      if (tasks.size !== options.tasks.length) issues.push({ path: 'topology.tasks', message: 'task ids must be unique' });
      options.tasks.forEach((task, index) => {
        for (const dependency of task.dependsOn ?? []) {
          if (!tasks.has(dependency))
            issues.push({ path: `topology.tasks.${index}.dependsOn`, message: `unknown task "${dependency}"` });
        }
        if (task.assignee !== undefined && !members.has(task.assignee))
          issues.push({ path: `topology.tasks.${index}.assignee`, message: `"${task.assignee}" is not a member` });
      });
      if (hasCycle(options.tasks)) issues.push({ path: 'topology.tasks', message: 'the dependencies form a cycle' });
      return issues;
    },
    async select(state, scope) {
      let board = boardOf(state, options.tasks);
      const names = [...scope.members.keys()];
      for (;;) {
        const claimable = options.tasks.find(
          (task) =>
            board[task.id]?.status === 'pending' &&
            (task.dependsOn ?? []).every((dependency) => board[dependency]?.status === 'done'),
        );
        if (!claimable) {
          return {
            board,
            answer: JSON.stringify(
              Object.fromEntries(Object.entries(board).map(([id, task]) => [id, task.result ?? task.status])),
            ),
            termination: { reason: 'completed', conditions: ['completed'], turns: state.turns },
          };
        }
        const member = claimable.assignee ?? (names[state.turns % names.length] as string);
        if (claimable.requiresApproval) {
          // Only the user answers (a resume of the run); no member's mail can reach this point.
          const answer = scope.askUser<ClaimApproval>({
            kind: 'approval',
            task: claimable.id,
            member,
            description: claimable.description,
          });
          if (answer?.approved !== true) {
            board = { ...board, [claimable.id]: { status: 'declined' } };
            continue;
          }
        }
        const turn = state.turns + 1;
        const events: TeamEventPayload[] = [
          { type: 'task-claimed', turn, task: claimable.id, member },
          { type: 'speaker-selected', turn, speaker: member, by: 'claim' },
        ];
        return {
          board: { ...board, [claimable.id]: { status: 'claimed', owner: member } },
          next: { speaker: member, subject: claimable.id },
          teamEvents: events,
        };
      }
    },
    async turn(state, scope) {
      return work(state, scope, tasks);
    },
    answerOf: (state) => state.answer,
  };
}

function boardOf(state: TeamState, tasks: readonly BoardTaskDefinition[]): Record<string, BoardTask> {
  return state.board ?? Object.fromEntries(tasks.map((task) => [task.id, { status: 'pending' as const }]));
}

function hasCycle(tasks: readonly BoardTaskDefinition[]): boolean {
  const byId = new Map(tasks.map((task) => [task.id, task]));
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (id: string): boolean => {
    if (state.get(id) === 'done') return false;
    if (state.get(id) === 'visiting') return true;
    state.set(id, 'visiting');
    const cyclic = (byId.get(id)?.dependsOn ?? []).some(visit);
    state.set(id, 'done');
    return cyclic;
  };
  return tasks.some((task) => visit(task.id));
}

/** The claimed task's turn: the member does it, reading its dependencies' results and its mailbox. */
async function work(state: TeamState, scope: StepScope, tasks: ReadonlyMap<string, BoardTaskDefinition>): Promise<TeamUpdate> {
  const name = state.next?.speaker as string;
  const id = state.next?.subject as string;
  const member = scope.members.get(name);
  const task = tasks.get(id);
  const board = state.board ?? {};
  if (!member || !task || board[id]?.owner !== name) {
    throw new NodeFailure({ kind: 'invalid-result', message: `task "${id}" is not claimed by "${name}"` });
  }
  const inbox = state.mail.filter((mail) => mail.to === name);
  const messages: Message[] = [{ role: 'user', content: `${state.task ?? ''}\n\nYour task (${id}): ${task.description}` }];
  for (const dependency of task.dependsOn ?? []) {
    messages.push({ role: 'user', content: `Result of ${dependency}: ${board[dependency]?.result ?? ''}` });
  }
  // Mail is data from a peer: quoted, attributed, never a system instruction (N-12).
  for (const mail of inbox) messages.push({ role: 'user', content: `[mail from ${mail.from}, not from the user]: ${mail.text}` });
  const others = [...scope.members.keys()].filter((other) => other !== name);
  const tools: ToolDefinition[] =
    others.length === 0
      ? []
      : [
          {
            name: SEND_MESSAGE_TOOL,
            description: `Send a message to another member's mailbox (${others.join(', ')}).`,
            inputSchema: {
              type: 'object',
              properties: { to: { type: 'string', enum: others }, text: { type: 'string' } },
              required: ['to', 'text'],
              additionalProperties: false,
            },
          },
        ];
  const response = await callTeamModel(
    member.model,
    { system: memberSystem(member, state.privateNotes), messages, tools },
    scope,
  );
  const turn = state.turns + 1;
  const text = response.message.content;
  const sent: Mail[] = (response.message.toolCalls ?? []).flatMap((call) => {
    const input = call.arguments as { to?: unknown; text?: unknown };
    return call.name === SEND_MESSAGE_TOOL &&
      typeof input?.to === 'string' &&
      others.includes(input.to) &&
      typeof input.text === 'string'
      ? [{ turn, from: name, to: input.to, text: input.text }]
      : [];
  });
  return {
    board: { ...board, [id]: { status: 'done', owner: name, result: text } },
    mail: sent,
    transcript: [{ turn, speaker: name, text }],
    owner: name,
    turns: turn,
    usage: usageOf(response),
    teamEvents: [
      { type: 'team-turn', turn, speaker: name, text },
      ...sent.map((mail) => ({ type: 'mail-sent' as const, turn, from: mail.from, to: mail.to, text: mail.text })),
    ],
  };
}
