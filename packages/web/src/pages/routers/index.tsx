import { Link, useParams } from 'react-router';
import { AppListPage } from '../../apps/index.js';
import { useT } from '../../i18n/index.js';

/** The space's router apps (issue 33) and the "create" entry; a new router opens in its editor with no action yet. */
export function RoutersPage() {
  const spaceId = useParams().spaceId ?? '';
  const t = useT();
  return (
    <AppListPage
      spaceId={spaceId}
      kind="router"
      publishedCell={(app) => <Link to={`${app.id}/chat`}>{t('router.chat')}</Link>}
      createBody={({ name, description }) => ({ kind: 'router', name, description })}
    />
  );
}
