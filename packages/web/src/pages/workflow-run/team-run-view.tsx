import { useT } from '../../i18n/index.js';
import type { TeamProgress } from '../../runs/team-progress.js';

/**
 * The team view of a workflow run (N-12, issue 31): for each team node with events, who owns
 * the answer, the turns so far (speaker and message), the speaker chosen next, the orchestrator's
 * current ledger, handoffs, votes, claims and mail, and how the team ended. Live from the run's
 * event stream, the same after a reload (the stream replays the journal).
 */
export function TeamRunView({ teams }: { teams: ReadonlyMap<string, TeamProgress> }) {
  if (teams.size === 0) return null;
  return (
    <>
      {[...teams].map(([name, team]) => (
        <TeamCard key={name} name={name} team={team} />
      ))}
    </>
  );
}

function TeamCard({ name, team }: { name: string; team: TeamProgress }) {
  const t = useT();
  const headingId = `team-${name}`;
  const yesNo = (value: boolean) => (value ? '✓' : '✗');
  return (
    <section className="card flow-team-run" aria-labelledby={headingId} data-team={name}>
      <h3 id={headingId}>{t('team.run.heading', { name })}</h3>
      <p data-testid="team-owner">{team.owner ? t('team.run.owner', { owner: team.owner }) : t('team.run.noOwner')}</p>
      {team.stop ? (
        <p data-testid="team-stop">{t('team.run.stopped', { turns: team.stop.turn, reason: team.stop.reason })}</p>
      ) : (
        <p>{t('team.run.running')}</p>
      )}
      {team.next ? <p>{t('team.run.next', { speaker: team.next.speaker, by: team.next.by })}</p> : null}
      <h4>{t('team.run.turns')}</h4>
      {team.turns.length === 0 ? <p>{t('team.run.noTurns')}</p> : null}
      <ol className="flow-team-turns" data-testid="team-turns">
        {team.turns.map((turn) => (
          <li key={turn.turn} data-speaker={turn.speaker}>
            <strong>
              {t('team.run.turn', { turn: turn.turn })} · {turn.speaker}
            </strong>
            <p>{turn.text}</p>
          </li>
        ))}
      </ol>
      {team.ledger ? (
        <section aria-label={t('team.run.ledger')} data-testid="team-ledger">
          <h4>{t('team.run.ledger')}</h4>
          <p className="field-hint">
            {t('team.run.ledgerMeta', {
              turn: team.ledger.turn,
              change: team.ledger.change,
              stalls: team.ledger.ledger.stalls,
              replans: team.ledger.ledger.replans,
            })}
          </p>
          <dl>
            <dt>{t('team.run.facts')}</dt>
            <dd>{team.ledger.ledger.facts}</dd>
            <dt>{t('team.run.plan')}</dt>
            <dd>{team.ledger.ledger.plan}</dd>
            {team.ledger.ledger.progress ? (
              <>
                <dt>{t('team.run.progress')}</dt>
                <dd>
                  {t('team.run.progressLine', {
                    satisfied: yesNo(team.ledger.ledger.progress.isRequestSatisfied),
                    looping: yesNo(team.ledger.ledger.progress.isInLoop),
                    progressing: yesNo(team.ledger.ledger.progress.isProgressBeingMade),
                    next: team.ledger.ledger.progress.nextSpeaker,
                  })}
                </dd>
              </>
            ) : null}
          </dl>
        </section>
      ) : null}
      {[
        ...team.handoffs.map((item) => t('team.run.handoff', { from: item.from, to: item.to })),
        ...team.votes.map((item) => t('team.run.vote', { voter: item.voter, choice: item.choice })),
        ...team.claims.map((item) => t('team.run.claim', { member: item.member, task: item.task })),
        ...team.mail.map((item) => t('team.run.mail', { from: item.from, to: item.to, text: item.text })),
      ].map((line, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the lines are an append-only log
        <p key={index} className="field-hint">
          {line}
        </p>
      ))}
    </section>
  );
}
