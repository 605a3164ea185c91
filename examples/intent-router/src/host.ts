/**
 * A minimal chat host over the intent layer (docs/intent.md, "How a host routes"): it keeps one
 * `DialogueState`, asks for required slots still missing, starts the SDK agent an action
 * reference names with the slots as input, stops it on `cancel`, and answers chit-chat,
 * clarification, hand-off and out-of-scope turns itself. `understand` only ever returns commands.
 */
import {
  type ActionRef,
  applyCommands,
  type Command,
  type CompiledCatalog,
  createHashingEmbedder,
  type DialogueState,
  refKey,
  understand,
} from '@agentloom/intent';
import type { Agent, AgentRun, AgentRunResult } from '@agentloom/sdk';

/** One turn as the host saw it. */
export interface HostTurn {
  user: string;
  commands: Command[];
  decidedBy: string;
  reply: string;
}

export class ChatHost {
  private state: DialogueState = {};
  private running: { action: string; run: AgentRun } | undefined;
  private readonly embedder = createHashingEmbedder();
  /** Every run the host started: which agent, with which input, and its handle. */
  readonly runs: Array<{ action: string; input: Record<string, unknown>; run: AgentRun }> = [];

  constructor(
    private readonly catalog: CompiledCatalog,
    /** What each action reference (`refKey`) starts. */
    private readonly agents: Record<string, Agent>,
  ) {}

  async say(user: string): Promise<HostTurn> {
    const { commands, decidedBy } = await understand({
      utterance: user,
      state: this.state,
      catalog: this.catalog,
      ports: { embedder: this.embedder },
    });
    const replies: string[] = [];
    for (const command of commands) {
      if (command.type === 'cancel') replies.push(await this.cancel());
      if (command.type === 'chitChat') replies.push('你好！I can check the weather or an order.');
      if (command.type === 'handOff') replies.push('Connecting you to a colleague.');
      if (command.type === 'cannotHandle') replies.push("Sorry, that's not something I can do.");
      if (command.type === 'clarify') replies.push(`Do you mean ${command.options.map((option) => option.id).join(' or ')}?`);
    }
    this.state = applyCommands(this.state, commands, this.catalog);
    const action = this.state.activeAction;
    if (
      action &&
      commands.some((command) => command.type === 'start' || command.type === 'setSlot' || command.type === 'correctSlot')
    ) {
      replies.push(
        this.state.askedSlot ? this.question(action, this.state.askedSlot) : await this.start(action, this.state.slots ?? {}),
      );
    }
    return { user, commands, decidedBy, reply: replies.join(' ') };
  }

  /** The first prompt of the slot the host asks for. */
  private question(action: ActionRef, slot: string): string {
    const declared = this.catalog.action(refKey(action))?.slots.find((candidate) => candidate.slot.name === slot)?.slot;
    return declared?.prompts[0] ?? `What is the ${slot}?`;
  }

  /** Routes by action reference: starts the agent with the slots as input, then hands the dialogue over to its run. */
  private async start(action: ActionRef, slots: Record<string, unknown>): Promise<string> {
    const key = refKey(action);
    const agent = this.agents[key];
    if (!agent) return `No agent answers ${key}.`;
    const run = agent.run({ sessionId: 'chat', input: JSON.stringify(slots) });
    this.runs.push({ action: key, input: slots, run });
    this.running = { action: key, run };
    this.state = {};
    const finished = await Promise.race([
      run.result(),
      new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 300)),
    ]);
    return finished ? this.answer(finished) : `Started ${key}; working on it.`;
  }

  private answer(result: AgentRunResult): string {
    if (this.running && result.runId === this.running.run.runId) this.running = undefined;
    return result.status === 'succeeded' ? String(result.output) : `The run ended ${result.status}.`;
  }

  private async cancel(): Promise<string> {
    const running = this.running;
    if (!running) return 'Cancelled.';
    await running.run.stop({ reason: 'cancelled by the user' });
    this.running = undefined;
    return `Stopped ${running.action}.`;
  }
}
