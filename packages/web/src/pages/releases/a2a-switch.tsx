import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../api/index.js';
import { CheckboxField, ProblemAlert } from '../../components/index.js';
import { useT } from '../../i18n/index.js';

/**
 * The app's A2A switch (issue 32): publishes the app as an A2A 1.0 agent (off by default). On,
 * it shows the Agent Card's URL, which other agents discover it by; callers authenticate with
 * the app's API keys. Editors change it; viewers see it read-only.
 */
export function A2aSwitch({ appId, canEdit }: { appId: string; canEdit: boolean }) {
  const t = useT();
  const queryClient = useQueryClient();
  const queryKey = ['app-a2a', appId] as const;
  const exposure = useQuery({
    queryKey,
    queryFn: () => unwrap(api.GET('/apps/{appId}/a2a', { params: { path: { appId } } })),
  });
  const change = useMutation({
    mutationFn: (enabled: boolean) => unwrap(api.PUT('/apps/{appId}/a2a', { params: { path: { appId } }, body: { enabled } })),
    onSuccess: (result) => queryClient.setQueryData(queryKey, result),
  });
  const a2a = exposure.data?.a2a;
  return (
    <section className="card" aria-labelledby="a2a-title">
      <h2 id="a2a-title">{t('a2a.title')}</h2>
      <ProblemAlert problem={exposure.error ?? change.error} />
      <CheckboxField
        label={t('a2a.enabled')}
        hint={t('a2a.hint')}
        checked={a2a?.enabled ?? false}
        disabled={!canEdit || !a2a || change.isPending}
        onChange={(event) => change.mutate(event.target.checked)}
      />
      {a2a?.enabled ? (
        <p>
          {t('a2a.card')} <code>{`${window.location.origin}${a2a.cardPath}`}</code>
        </p>
      ) : null}
    </section>
  );
}
