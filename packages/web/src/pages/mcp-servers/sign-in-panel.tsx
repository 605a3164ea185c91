import { useMutation, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../api/index.js';
import { Notice, ProblemAlert } from '../../components/index.js';
import { useT } from '../../i18n/index.js';

/**
 * The OAuth sign-in of an MCP server whose newest version has `oauth` (issue 32): whether this
 * space is connected, "Connect" (the browser goes to the authorization server and comes back
 * through the platform's callback to this page, `?signIn=`), and "Disconnect". The tokens stay on
 * the server, sealed; this shows only whether they are held and when the access token lapses.
 */
export function SignInPanel({
  spaceId,
  resourceId,
  canEdit,
  outcome,
}: {
  spaceId: string;
  resourceId: string;
  canEdit: boolean;
  /** What the callback said when it sent the person back here (`connected` or a refusal's reason). */
  outcome?: string | undefined;
}) {
  const t = useT();
  const status = useQuery({
    queryKey: ['mcp-sign-in', spaceId, resourceId],
    queryFn: () =>
      unwrap(api.GET('/spaces/{spaceId}/resources/{resourceId}/sign-in', { params: { path: { spaceId, resourceId } } })),
  });
  const connect = useMutation({
    mutationFn: () =>
      unwrap(api.POST('/spaces/{spaceId}/resources/{resourceId}/sign-in', { params: { path: { spaceId, resourceId } } })),
    onSuccess: (answer) => {
      if (answer.authorizationUrl) window.location.assign(answer.authorizationUrl);
      else void status.refetch();
    },
  });
  const disconnect = useMutation({
    mutationFn: () =>
      unwrap(api.DELETE('/spaces/{spaceId}/resources/{resourceId}/sign-in', { params: { path: { spaceId, resourceId } } })),
    onSuccess: () => void status.refetch(),
  });
  const signIn = status.data?.signIn;
  return (
    <section className="card" aria-labelledby="mcp-sign-in">
      <h3 id="mcp-sign-in">{t('mcpSignIn.title')}</h3>
      {outcome === 'connected' ? <Notice>{t('mcpSignIn.connectedNow')}</Notice> : null}
      {outcome && outcome !== 'connected' ? (
        <div className="alert alert-error" role="alert">
          {t('mcpSignIn.refused', { reason: outcome })}
        </div>
      ) : null}
      <ProblemAlert problem={status.error ?? connect.error ?? disconnect.error} />
      {signIn ? (
        <p>
          {signIn.connected
            ? signIn.expiresAt
              ? t('mcpSignIn.connectedUntil', { at: new Date(signIn.expiresAt) })
              : t('mcpSignIn.connected')
            : t('mcpSignIn.notConnected')}
        </p>
      ) : null}
      {canEdit ? (
        <div className="button-row">
          <button type="button" className="button-primary" disabled={connect.isPending} onClick={() => connect.mutate()}>
            {connect.isPending ? t('mcpSignIn.connecting') : t('mcpSignIn.connect')}
          </button>
          {signIn?.connected ? (
            <button type="button" disabled={disconnect.isPending} onClick={() => disconnect.mutate()}>
              {t('mcpSignIn.disconnect')}
            </button>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}
