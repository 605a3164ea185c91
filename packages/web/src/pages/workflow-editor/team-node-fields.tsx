import type { Schema } from '../../api/index.js';
import { CheckboxField, SelectField, TextAreaField, TextField } from '../../components/index.js';
import { type MessageId, useT } from '../../i18n/index.js';
import { type DefinitionNode, stateFieldsOf, type TeamBinding, type WorkflowDraft, withNodes } from './draft-model.js';
import {
  kindOf,
  memberNameOf,
  newTeam,
  type TopologyKind,
  tasksOf,
  teamBindingNameOf,
  teamOf,
  topologyFor,
  topologyKinds,
  withTeam,
} from './team-model.js';

type App = Schema<'App'>;
type Change = (change: (draft: WorkflowDraft) => WorkflowDraft) => void;

/** The topology select's options, in the console's words. */
function TopologyOptions() {
  const t = useT();
  return (
    <>
      {topologyKinds.map((kind) => (
        <option key={kind} value={kind}>
          {t(`team.topology.${kind}` as MessageId)}
        </option>
      ))}
    </>
  );
}

/** The topology of a team in words, with its member count (the canvas box and the run page). */
export function useTeamLabel(): (team: TeamBinding | undefined) => string {
  const t = useT();
  return (team) => t('team.label', { topology: kindOf(team), count: team?.members.length ?? 0 });
}

/**
 * The side panel of a team node: its topology, its members (picked among the space's agent apps;
 * an unpublished one cannot be picked), its max turns and token budget, and which state field is
 * its task and which gets its answer. Every change rewrites the team's binding.
 */
export function TeamNodeFields({
  node,
  draft,
  agentApps,
  readOnly,
  onChange,
}: {
  node: DefinitionNode;
  draft: WorkflowDraft;
  agentApps: readonly App[];
  readOnly: boolean;
  onChange: Change;
}) {
  const t = useT();
  const team = teamOf(draft, node) ?? newTeam('group-chat');
  const bound = node.team ?? teamBindingNameOf(node.name);
  const kind = kindOf(team);
  const fields = Object.keys(stateFieldsOf(draft.definition));
  const save = (next: Partial<TeamBinding>, nextKind: TopologyKind = kind) => {
    const merged: TeamBinding = { ...team, ...next };
    const topology = topologyFor(
      nextKind,
      merged.members.map((member) => member.name),
      tasksOf(merged.topology),
    );
    onChange((current) => {
      const nodes = Array.isArray(current.definition.nodes) ? current.definition.nodes : [];
      const withBinding = withTeam(current, bound, { ...merged, topology });
      return node.team
        ? withBinding
        : withNodes(
            withBinding,
            nodes.map((item) => ((item as DefinitionNode).name === node.name ? { ...node, team: bound } : item)),
          );
    });
  };
  const setNodeField = (field: 'input' | 'output', value: string) =>
    onChange((current) => {
      const nodes = Array.isArray(current.definition.nodes) ? current.definition.nodes : [];
      return withNodes(
        current,
        nodes.map((item) => {
          if ((item as DefinitionNode).name !== node.name) return item;
          const { [field]: _old, ...rest } = item as DefinitionNode;
          return value ? { ...rest, [field]: value } : rest;
        }),
      );
    });
  // A picked member shows its place: the first one starts (handoff entry, orchestrator, generator).
  const labelOf = (app: App) => {
    const position = team.members.findIndex((member) => member.appId === app.id) + 1;
    if (position > 0) return t('team.field.memberAt', { name: app.name, position });
    return app.latestReleaseId ? app.name : t('team.field.notPublished', { name: app.name });
  };
  const toggle = (app: App, on: boolean) => {
    const members = on
      ? [...team.members, { name: memberNameOf(app.name), appId: app.id }]
      : team.members.filter((member) => member.appId !== app.id);
    save({ members });
  };
  const number = (text: string) => (text.trim() === '' ? undefined : Math.max(1, Math.floor(Number(text)) || 1));
  return (
    <fieldset className="flow-team-fields" disabled={readOnly} data-testid="team-fields">
      <SelectField
        label={t('team.field.topology')}
        value={kind}
        onChange={(event) => save({}, event.target.value as TopologyKind)}
      >
        <TopologyOptions />
      </SelectField>
      <fieldset>
        <legend>{t('team.field.members')}</legend>
        <p className="field-hint">{t('team.field.membersHint')}</p>
        {agentApps.length === 0 ? <p>{t('team.field.noAgents')}</p> : null}
        {agentApps.map((app) => (
          <CheckboxField
            key={app.id}
            label={labelOf(app)}
            checked={team.members.some((member) => member.appId === app.id)}
            disabled={!app.latestReleaseId && !team.members.some((member) => member.appId === app.id)}
            onChange={(event) => toggle(app, event.target.checked)}
          />
        ))}
      </fieldset>
      {kind === 'task-board' ? (
        <TextAreaField
          label={t('team.field.tasks')}
          defaultValue={tasksOf(team.topology).join('\n')}
          onBlur={(event) => {
            const tasks = event.target.value
              .split('\n')
              .map((line) => line.trim())
              .filter(Boolean);
            save({ topology: topologyFor('task-board', [], tasks) });
          }}
        />
      ) : null}
      <TextField
        label={t('team.field.maxTurns')}
        hint={t('team.field.maxTurnsHint')}
        type="number"
        min={1}
        value={team.maxTurns ?? ''}
        onChange={(event) => {
          const maxTurns = number(event.target.value);
          const { maxTurns: _old, ...rest } = team;
          save(maxTurns === undefined ? rest : { maxTurns });
        }}
      />
      <TextField
        label={t('team.field.maxTokens')}
        hint={t('team.field.maxTokensHint')}
        type="number"
        min={1}
        value={team.budget?.maxTokens ?? ''}
        onChange={(event) => {
          const maxTokens = number(event.target.value);
          save({ budget: { ...team.budget, ...(maxTokens === undefined ? {} : { maxTokens }) } });
        }}
      />
      <SelectField
        label={t('team.field.input')}
        value={typeof node.input === 'string' ? node.input : ''}
        onChange={(event) => setNodeField('input', event.target.value)}
      >
        <option value="">—</option>
        {fields.map((field) => (
          <option key={field} value={field}>
            {field}
          </option>
        ))}
      </SelectField>
      <SelectField
        label={t('team.field.output')}
        value={node.output ?? ''}
        onChange={(event) => setNodeField('output', event.target.value)}
      >
        <option value="">—</option>
        {fields.map((field) => (
          <option key={field} value={field}>
            {field}
          </option>
        ))}
      </SelectField>
    </fieldset>
  );
}

/**
 * The card of the selected team node, below its node panel (edges, deletion): its team's settings.
 */
export function TeamNodeCard(props: Parameters<typeof TeamNodeFields>[0]) {
  const t = useT();
  return (
    <section className="card flow-panel" aria-labelledby="team-card-heading">
      <h2 id="team-card-heading">{t('team.panel.heading', { name: props.node.name })}</h2>
      <TeamNodeFields key={props.node.name} {...props} />
    </section>
  );
}

/** The draft with a new team node `name` (its task the first state field) and its binding of `kind`, no members yet. */
export function withNewTeamNode(draft: WorkflowDraft, name: string, kind: TopologyKind): WorkflowDraft {
  const bound = teamBindingNameOf(name);
  const first = Object.keys(stateFieldsOf(draft.definition))[0];
  const nodes = Array.isArray(draft.definition.nodes) ? draft.definition.nodes : [];
  const node = { name, kind: 'team', team: bound, ...(first ? { input: first } : {}) };
  return withTeam(withNodes(draft, [...nodes, node]), bound, newTeam(kind));
}

/** The "Add a node" form's fields for a team node: its topology (members are picked in its panel). */
export function AddTeamFields({ kind, onKind }: { kind: TopologyKind; onKind: (kind: TopologyKind) => void }) {
  const t = useT();
  return (
    <>
      <p className="field-hint">{t('team.add.intro')}</p>
      <SelectField label={t('team.field.topology')} value={kind} onChange={(event) => onKind(event.target.value as TopologyKind)}>
        <TopologyOptions />
      </SelectField>
    </>
  );
}

/** The "Add a node" form's option of a team node. */
export function TeamKindOption() {
  const t = useT();
  return <option value="team">{t('team.add.kind')}</option>;
}
