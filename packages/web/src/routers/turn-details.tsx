import type { Schema } from '../api/index.js';
import { type Translate, useT } from '../i18n/index.js';

type Reply = Schema<'RouterReply'>;
type Command = Schema<'IntentCommand'>;
type Understanding = Pick<Schema<'RouterTrial'>, 'commands' | 'decidedBy' | 'trace' | 'reply'>;

/**
 * What the router answers, in the user's language: the slot's own prompt (written by the
 * router's author), or the console's sentence for the kind of reply, naming the action by its
 * description.
 */
export function replyText(t: Translate, reply: Reply): string {
  switch (reply.kind) {
    case 'ask-slot':
      return t('router.reply.askSlot', { text: reply.text });
    case 'started':
      return t('router.reply.started', { action: reply.text.replace(/^Starting: /, '') });
    case 'supplemented':
      return t('router.reply.supplemented');
    case 'cancelled':
      return t('router.reply.cancelled');
    case 'clarify':
      return t('router.reply.clarify', { options: (reply.options ?? []).map((option) => option.description).join(' / ') });
    case 'chit-chat':
      return t('router.reply.chitChat');
    case 'hand-off':
      return t('router.reply.handOff');
    default:
      return t('router.reply.cannotHandle');
  }
}

/** A command as a line of code: its type and arguments, an action by the name of its app. */
function commandLine(command: Command, appName: (id: string) => string): string {
  const parts: string[] = [command.type];
  if (command.action) parts.push(`${command.action.kind}:${appName(command.action.id)}`);
  if (command.name !== undefined) parts.push(`${command.name} = ${String(command.value)}`);
  if (command.options) parts.push(command.options.map((option) => appName(option.id)).join(' | '));
  if (command.reason) parts.push(`(${command.reason})`);
  return parts.join(' ');
}

/** An action reference in a trace reason (`agent:app_…`) with its app's name. */
function named(text: string, appName: (id: string) => string): string {
  return text.replace(/\b(agent|workflow):([A-Za-z0-9_-]+)/g, (_, kind: string, id: string) => `${kind}:${appName(id)}`);
}

type TraceEntry = Understanding['trace'][number];

/** Why a layer decided: its own reason, or for the slot reading the values found and skipped (`date = tomorrow ← "tomorrow"`). */
function reasonOf(entry: TraceEntry, appName: (id: string) => string): string {
  if (entry.reason) return named(entry.reason, appName);
  const found = (entry.found ?? []) as { slot: string; value: unknown; text: string; result: string }[];
  const skipped = (entry.skipped ?? []) as { slot: string; reason: string }[];
  const lines = [
    ...found.map((finding) => `${finding.slot} = ${String(finding.value)} ← "${finding.text}" (${finding.result})`),
    ...skipped.map((skip) => `${skip.slot}: ${skip.reason}`),
  ];
  return lines.join('\n') || '—';
}

/**
 * How a message was understood: the deciding layer, the commands and every layer's verdict with
 * its reason (the trace of `@agentloom/intent`), for the "try it" panel and the chat.
 */
export function TurnDetails({ turn, appName }: { turn: Understanding; appName: (id: string) => string }) {
  const t = useT();
  return (
    <div className="router-turn-details">
      <p>
        <strong>{t('router.decidedBy', { layer: turn.decidedBy })}</strong>
      </p>
      <h3>{t('router.commands')}</h3>
      {turn.commands.length === 0 ? (
        <p>{t('router.noCommands')}</p>
      ) : (
        <ul className="item-list" aria-label={t('router.commands')}>
          {turn.commands.map((command, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: commands have no identity of their own; the list is replaced whole
            <li key={index}>
              <code>{commandLine(command, appName)}</code>
            </li>
          ))}
        </ul>
      )}
      <table className="table">
        <caption>{t('router.trace')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('router.traceLayer')}</th>
            <th scope="col">{t('router.traceOutcome')}</th>
            <th scope="col">{t('router.traceReason')}</th>
          </tr>
        </thead>
        <tbody>
          {turn.trace.map((entry, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: trace entries are ordered steps with no id
            <tr key={index}>
              <td>
                <code>{entry.layer}</code>
              </td>
              <td>{entry.outcome ?? '—'}</td>
              <td className="pre-wrap">{reasonOf(entry, appName)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
