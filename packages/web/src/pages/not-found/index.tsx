import { FormattedMessage } from 'react-intl';
import { Link } from 'react-router';
import { PageHeader } from '../../components/index.js';
import { useT } from '../../i18n/index.js';

/** Any address the console does not know. */
export function NotFoundPage() {
  const t = useT();
  return (
    <>
      <PageHeader title={t('notFound.title')} />
      <p>
        <FormattedMessage id="notFound.text" values={{ link: (text) => <Link to="/">{text}</Link> }} />
      </p>
    </>
  );
}
