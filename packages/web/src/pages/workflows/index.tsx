import { Link, useParams } from 'react-router';
import { AppListPage } from '../../apps/index.js';
import { useT } from '../../i18n/index.js';
import { useSpaceAccess } from '../../session/index.js';
import { TeamTemplateCard } from './team-template.js';

/** The space's workflow apps and the "create" entry (an empty canvas, or the team template). */
export function WorkflowsPage() {
  const spaceId = useParams().spaceId ?? '';
  const t = useT();
  const access = useSpaceAccess(spaceId);
  return (
    <AppListPage
      spaceId={spaceId}
      kind="workflow"
      publishedCell={(app) => <Link to={`${app.id}/releases`}>{t('common.yes')}</Link>}
      createBody={({ name, description }) => ({ kind: 'workflow', name, description })}
    >
      {access.canEdit ? <TeamTemplateCard spaceId={spaceId} /> : null}
    </AppListPage>
  );
}
