import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { api, queryKeys, unwrap } from '../../api/index.js';
import { ProblemAlert } from '../../components/index.js';
import { useT } from '../../i18n/index.js';
import { teamTemplateDraft } from '../workflow-editor/team-model.js';

/**
 * The team template (issue 31): a new workflow app whose draft is a handoff team between the
 * space's first two published agent apps (`question` → team → `answer`), opened in the editor,
 * where the topology and members can be changed before publishing.
 */
export function TeamTemplateCard({ spaceId }: { spaceId: string }) {
  const t = useT();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const agents = useQuery({
    queryKey: queryKeys.apps(spaceId, 'agent'),
    queryFn: () => unwrap(api.GET('/spaces/{spaceId}/apps', { params: { path: { spaceId }, query: { kind: 'agent' } } })),
  });
  const create = useMutation({
    mutationFn: async () => {
      const { app } = await unwrap(
        api.POST('/spaces/{spaceId}/apps', {
          params: { path: { spaceId } },
          body: { kind: 'workflow', name: t('team.template.name'), description: t('team.template.description') },
        }),
      );
      const published = (agents.data?.apps ?? []).filter((agent) => agent.latestReleaseId);
      const { draft } = await unwrap(api.GET('/apps/{appId}/draft', { params: { path: { appId: app.id } } }));
      await unwrap(
        api.PUT('/apps/{appId}/draft', {
          params: { path: { appId: app.id }, header: { 'if-match': `"${draft.revision}"` } },
          body: { config: teamTemplateDraft(published) },
        }),
      );
      return app.id;
    },
    onSuccess: async (appId) => {
      await queryClient.invalidateQueries({ queryKey: queryKeys.apps(spaceId) });
      navigate(`/spaces/${spaceId}/workflows/${appId}`);
    },
  });
  return (
    <section className="card" aria-labelledby="team-template-heading">
      <h2 id="team-template-heading">{t('team.template.name')}</h2>
      <p>{t('team.template.description')}</p>
      <ProblemAlert problem={create.error} />
      <button type="button" disabled={create.isPending || agents.isPending} onClick={() => create.mutate()}>
        {create.isPending ? t('team.template.creating') : t('team.template.button')}
      </button>
    </section>
  );
}
