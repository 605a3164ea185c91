import { Link, useParams } from 'react-router';
import { AppListPage } from '../../apps/index.js';
import { useT } from '../../i18n/index.js';

/** The space's workflow apps and the "create" entry; a new workflow opens on an empty canvas. */
export function WorkflowsPage() {
  const spaceId = useParams().spaceId ?? '';
  const t = useT();
  return (
    <AppListPage
      spaceId={spaceId}
      kind="workflow"
      publishedCell={(app) => <Link to={`${app.id}/releases`}>{t('common.yes')}</Link>}
      createBody={({ name, description }) => ({ kind: 'workflow', name, description })}
    />
  );
}
