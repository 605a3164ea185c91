import { useMutation } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api, unwrap } from '../api/index.js';
import { ProblemAlert } from '../components/index.js';
import { useT } from '../i18n/index.js';
import { isTerminal, useRun } from '../runs/index.js';
import { useMe } from '../session/index.js';

/** What the crash route answered, and the run's owner epoch at that moment. */
interface Crash {
  workerId: string;
  pid: number;
  epochBefore: number | undefined;
  /** The owner that took the run over, once seen (kept after the run ended and has no owner). */
  takeover?: { ownerId: string; epoch: number };
}

/**
 * "Crash the worker" (issue 35, ADR 0034): on a run of the Demo space, for instance admins, a
 * button that SIGKILLs the worker process executing the run, then the takeover as the run's
 * owner shows it — the same run id, a new owner with a higher epoch once the lease ended, and
 * the run's end. Nothing is shown elsewhere, or to anyone else.
 */
export function CrashWorkerCard({ spaceId, runId }: { spaceId: string; runId: string | undefined }) {
  const t = useT();
  const me = useMe();
  const run = useRun(runId);
  const [crash, setCrash] = useState<Crash>();
  const demo = me.data?.spaces.find((space) => space.id === spaceId)?.demo === true;
  const crashIt = useMutation({
    mutationFn: async () => {
      // Read the owner now, not from the last poll: a poll taken while the run was queued has none.
      const current = await unwrap(api.GET('/runs/{runId}', { params: { path: { runId: runId ?? '' } } }));
      const epochBefore = current.run.owner?.epoch ?? 0;
      const killed = await unwrap(api.POST('/runs/{runId}/crash-worker', { params: { path: { runId: runId ?? '' } } }));
      setCrash({ workerId: killed.workerId, pid: killed.pid, epochBefore });
    },
  });
  const owner = run.data?.owner;
  // A higher epoch than at the crash: another worker owns the same run now.
  useEffect(() => {
    if (crash && !crash.takeover && owner && crash.epochBefore !== undefined && owner.epoch > crash.epochBefore)
      setCrash({ ...crash, takeover: { ownerId: owner.ownerId, epoch: owner.epoch } });
  }, [crash, owner]);
  if (!demo || !me.data?.user.isInstanceAdmin || !runId) return null;
  const ended = run.data ? isTerminal(run.data.status) : false;
  const takenOver = crash?.takeover;
  return (
    <section className="card demo-crash" aria-labelledby="demo-crash-title" data-testid="demo-crash">
      <h2 id="demo-crash-title">{t('demo.crash.title')}</h2>
      <p>{t('demo.crash.explain')}</p>
      <p data-testid="demo-crash-owner">
        {owner
          ? t('demo.crash.owner', { runId, owner: owner.ownerId, epoch: owner.epoch, live: String(owner.live) })
          : t('demo.crash.noOwner', { runId })}
      </p>
      <button type="button" className="button-danger" disabled={ended || crashIt.isPending} onClick={() => crashIt.mutate()}>
        {t('demo.crash.button')}
      </button>
      <ProblemAlert problem={crashIt.error} title={t('demo.crash.failed')} />
      {crash ? (
        <p className="alert alert-warning" role="status" data-testid="demo-crash-killed">
          {t('demo.crash.killed', { workerId: crash.workerId, pid: crash.pid })}
        </p>
      ) : null}
      {takenOver ? (
        <p className="alert alert-success" role="status" data-testid="demo-crash-takeover">
          {t('demo.crash.takeover', { runId, owner: takenOver.ownerId, epoch: takenOver.epoch })}
        </p>
      ) : crash && !ended ? (
        <p role="status">{t('demo.crash.waiting')}</p>
      ) : null}
    </section>
  );
}
