import { Link } from 'react-router';
import { PageHeader } from '../../components/index.js';

/** Any address the console does not know. */
export function NotFoundPage() {
  return (
    <>
      <PageHeader title="Page not found" />
      <p>
        Nothing lives at this address. <Link to="/">Go to your spaces</Link>.
      </p>
    </>
  );
}
