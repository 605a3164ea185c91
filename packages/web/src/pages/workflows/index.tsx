import { Link, useParams } from 'react-router';
import { AppListPage } from '../../apps/index.js';

/** The space's workflow apps and the "create" entry; a new workflow opens on an empty canvas. */
export function WorkflowsPage() {
  const spaceId = useParams().spaceId ?? '';
  return (
    <AppListPage
      spaceId={spaceId}
      kind="workflow"
      title="Workflows"
      noun="workflow"
      publishedCell={(app) => <Link to={`${app.id}/releases`}>yes</Link>}
      createBody={({ name, description }) => ({ kind: 'workflow', name, description })}
    />
  );
}
