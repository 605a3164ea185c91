import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, Navigate, Outlet, useLocation, useMatch, useNavigate } from 'react-router';
import { ApiProblem, api, rememberCsrfToken, unwrap } from '../api/index.js';
import { ProblemAlert } from '../components/index.js';
import { LocaleSwitcher, useRoleName, useT } from '../i18n/index.js';
import { useMe } from '../session/index.js';

/**
 * The signed-in frame: a skip link, the header with the space switcher and sign-out, and the
 * page. Without a session (401) it sends the user to sign in and back here afterwards.
 */
export function RootLayout() {
  const me = useMe();
  const location = useLocation();
  const navigate = useNavigate();
  const spaceId = useMatch('/spaces/:spaceId/*')?.params.spaceId;
  const queryClient = useQueryClient();
  const t = useT();
  const roleName = useRoleName();
  const signOut = useMutation({
    mutationFn: () => unwrap(api.POST('/auth/logout')),
    onSettled: () => {
      rememberCsrfToken(undefined);
      queryClient.clear();
      navigate('/sign-in');
    },
  });

  if (me.error instanceof ApiProblem && me.error.status === 401) {
    return <Navigate to={`/sign-in?next=${encodeURIComponent(location.pathname)}`} replace />;
  }
  return (
    <>
      <a className="skip-link" href="#main">
        {t('shell.skipToContent')}
      </a>
      <header className="top-bar">
        <Link to="/" className="brand">
          AgentLoom
        </Link>
        {me.data && me.data.spaces.length > 0 ? (
          <label className="space-switcher">
            <span>{t('shell.space')}</span>
            <select
              value={spaceId ?? ''}
              onChange={(event) => navigate(event.target.value ? `/spaces/${event.target.value}/agents` : '/')}
            >
              <option value="">{t('shell.allSpaces')}</option>
              {me.data.spaces.map((space) => (
                <option key={space.id} value={space.id}>
                  {t('shell.spaceOption', { name: space.name, role: roleName(space.role) })}
                </option>
              ))}
            </select>
          </label>
        ) : null}
        <LocaleSwitcher />
        <span className="top-bar-user">{me.data?.user.email}</span>
        <button type="button" className="button-quiet" onClick={() => signOut.mutate()} disabled={signOut.isPending}>
          {t('shell.signOut')}
        </button>
      </header>
      <main id="main" className="main">
        {me.isPending ? <p>{t('shell.loading')}</p> : me.error ? <ProblemAlert problem={me.error} /> : <Outlet />}
      </main>
    </>
  );
}
