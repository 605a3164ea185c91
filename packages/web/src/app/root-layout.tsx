import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, Navigate, Outlet, useLocation, useMatch, useNavigate } from 'react-router';
import { ApiProblem, api, rememberCsrfToken, unwrap } from '../api/index.js';
import { ProblemAlert } from '../components/index.js';
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
        Skip to content
      </a>
      <header className="top-bar">
        <Link to="/" className="brand">
          AgentLoom
        </Link>
        {me.data && me.data.spaces.length > 0 ? (
          <label className="space-switcher">
            <span>Space</span>
            <select
              value={spaceId ?? ''}
              onChange={(event) => navigate(event.target.value ? `/spaces/${event.target.value}/agents` : '/')}
            >
              <option value="">All spaces</option>
              {me.data.spaces.map((space) => (
                <option key={space.id} value={space.id}>
                  {space.name} ({space.role})
                </option>
              ))}
            </select>
          </label>
        ) : null}
        <span className="top-bar-user">{me.data?.user.email}</span>
        <button type="button" className="button-quiet" onClick={() => signOut.mutate()} disabled={signOut.isPending}>
          Sign out
        </button>
      </header>
      <main id="main" className="main">
        {me.isPending ? <p>Loading…</p> : me.error ? <ProblemAlert problem={me.error} /> : <Outlet />}
      </main>
    </>
  );
}
