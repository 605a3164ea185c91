import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { FormattedMessage } from 'react-intl';
import { useNavigate, useSearchParams } from 'react-router';
import { api, queryKeys, rememberCsrfToken, unwrap } from '../../api/index.js';
import { type FieldErrors, fieldMessage, PageHeader, ProblemAlert, TextField, useFieldChecks } from '../../components/index.js';
import { LocaleSwitcher, useT } from '../../i18n/index.js';

/** Sign-in with email and password: a cookie session plus the CSRF token later changes send. */
export function SignInPage() {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { errors, form, accept } = useFieldChecks();
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const queryClient = useQueryClient();
  const t = useT();
  const signIn = useMutation({
    mutationFn: () => unwrap(api.POST('/auth/login', { body: { email, password } })),
    onSuccess: async (result) => {
      rememberCsrfToken(result.csrfToken);
      await queryClient.invalidateQueries({ queryKey: queryKeys.me() });
      const next = search.get('next');
      navigate(next?.startsWith('/') && !next.startsWith('//') ? next : '/');
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found: FieldErrors = {
      email: email.includes('@') ? undefined : t('signIn.emailMissing'),
      password: password ? undefined : t('signIn.passwordMissing'),
    };
    if (!accept(found)) return;
    signIn.mutate();
  };

  return (
    <main id="main" className="sign-in">
      <div className="card sign-in-card">
        <PageHeader title={t('signIn.title')}>
          <LocaleSwitcher />
        </PageHeader>
        <form ref={form} onSubmit={submit} noValidate>
          <TextField
            label={t('signIn.email')}
            type="email"
            autoComplete="username"
            value={email}
            onValue={setEmail}
            error={fieldMessage(errors, signIn.error, 'email')}
          />
          <TextField
            label={t('signIn.password')}
            type="password"
            autoComplete="current-password"
            value={password}
            onValue={setPassword}
            error={fieldMessage(errors, signIn.error, 'password')}
          />
          <ProblemAlert problem={signIn.error} title={t('signIn.failed')} />
          <button type="submit" className="button-primary" disabled={signIn.isPending}>
            {signIn.isPending ? t('signIn.submitting') : t('signIn.submit')}
          </button>
        </form>
        <p className="field-hint">
          <FormattedMessage id="signIn.firstStart" values={{ code: (text) => <code>{text}</code> }} />
        </p>
      </div>
    </main>
  );
}
