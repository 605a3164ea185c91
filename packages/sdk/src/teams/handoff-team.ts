import { Team, type TeamConfig } from './team.js';
import type { TeamMember } from './team-types.js';
import { type HandoffOptions, handoff as handoffTopology } from './topologies/handoff.js';
import type { Topology } from './topology.js';

/** A member of a handoff team, declared with the members it may hand the final answer to. */
export interface HandoffMember extends TeamMember {
  /** The members (or `user`) it may hand the answer to: its `transfer_to_<name>` tools. None: it answers. */
  handoffs?: readonly (HandoffMember | 'user')[];
}

/** The options of `handoff(entry, options)`: a team's run policy, and the handoff topology's own options. */
export interface HandoffTeamOptions
  extends Omit<TeamConfig, 'name' | 'members' | 'topology'>,
    Pick<HandoffOptions, 'historyFilter' | 'maxHandoffs'> {
  /** Names the team's runs. Default: the entry member's name. */
  name?: string;
}

/**
 * The `handoff` topology (N-12), written one of two ways:
 * - `handoff({ entry, handoffs, historyFilter?, maxHandoffs? })`: the topology, from a table of
 *   member names (what a `TeamDefinition` holds), for `new Team({ members, topology })`;
 * - `handoff(entryMember, options?)`: the whole team, declared where its members are. The members
 *   are the entry and every member reachable from it through `handoffs` (each once, cycles
 *   allowed); the entry owns the answer first; each member's handoffs become its
 *   `transfer_to_<name>` tools; the team is named after the entry unless `options.name` says
 *   otherwise. The same team as the first form, with no separate table of names to keep in step
 *   with the members (as OpenAI Agents users write `handoffs: [agent]`).
 *
 * @example
 * const billing = { name: 'billing', instructions: 'You handle billing.', model };
 * const team = handoff({ name: 'triage', instructions: 'You sort requests.', model, handoffs: [billing] }, { store });
 * const result = await team.run({ sessionId: 's1', input: 'I was charged twice' }).result();
 */
export function handoff(options: HandoffOptions): Topology;
export function handoff(entry: HandoffMember, options?: HandoffTeamOptions): Team;
export function handoff(first: HandoffOptions | HandoffMember, options: HandoffTeamOptions = {}): Topology | Team {
  return typeof (first as HandoffOptions).entry === 'string'
    ? handoffTopology(first as HandoffOptions)
    : handoffTeam(first as HandoffMember, options);
}

/** The team of `handoff(entry, options)`. */
function handoffTeam(entry: HandoffMember, options: HandoffTeamOptions = {}): Team {
  const found: HandoffMember[] = [];
  const seen = new Set<HandoffMember>();
  // Breadth first from the entry, each member once (a handoff back to a caller is a cycle).
  for (let queue: HandoffMember[] = [entry]; queue.length > 0; ) {
    const next: HandoffMember[] = [];
    for (const member of queue) {
      if (seen.has(member)) continue;
      seen.add(member);
      found.push(member);
      for (const target of member.handoffs ?? []) if (target !== 'user') next.push(target);
    }
    queue = next;
  }
  const handoffs: Record<string, string[]> = {};
  const members: TeamMember[] = [];
  for (const { handoffs: targets, ...member } of found) {
    members.push(member);
    if (targets && targets.length > 0)
      handoffs[member.name] = targets.map((target) => (target === 'user' ? 'user' : target.name));
  }
  const { name, historyFilter, maxHandoffs, ...config } = options;
  return new Team({
    ...config,
    name: name ?? entry.name,
    members,
    topology: handoffTopology({
      entry: entry.name,
      handoffs,
      ...(historyFilter !== undefined ? { historyFilter } : {}),
      ...(maxHandoffs !== undefined ? { maxHandoffs } : {}),
    }),
  });
}
