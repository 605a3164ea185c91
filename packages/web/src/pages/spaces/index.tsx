import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { api, queryKeys, unwrap } from '../../api/index.js';
import { fieldMessage, PageHeader, ProblemAlert, TextField, useFieldChecks } from '../../components/index.js';
import { useRoleName, useT } from '../../i18n/index.js';
import { useMe } from '../../session/index.js';

/** The spaces the user belongs to, and a form to create one (the creator becomes its owner). */
export function SpacesPage() {
  const me = useMe();
  const [name, setName] = useState('');
  const { errors, form, accept } = useFieldChecks();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const t = useT();
  const roleName = useRoleName();
  const create = useMutation({
    mutationFn: () => unwrap(api.POST('/spaces', { body: { name } })),
    onSuccess: async (result) => {
      await queryClient.invalidateQueries({ queryKey: queryKeys.me() });
      navigate(`/spaces/${result.space.id}/agents`);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = { name: name.trim() ? undefined : t('spaces.nameMissing') };
    if (!accept(found)) return;
    create.mutate();
  };

  return (
    <>
      <PageHeader title={t('spaces.title')} />
      <section aria-labelledby="your-spaces" className="card">
        <h2 id="your-spaces">{t('spaces.yours')}</h2>
        {me.data?.spaces.length ? (
          <ul className="item-list">
            {me.data.spaces.map((space) => (
              <li key={space.id}>
                <Link to={`/spaces/${space.id}/agents`}>{space.name}</Link> <span className="badge">{roleName(space.role)}</span>
              </li>
            ))}
          </ul>
        ) : (
          <p>{t('spaces.none')}</p>
        )}
      </section>
      <section aria-labelledby="new-space" className="card">
        <h2 id="new-space">{t('spaces.new')}</h2>
        <form ref={form} onSubmit={submit} noValidate className="inline-form">
          <TextField label={t('spaces.name')} value={name} onValue={setName} error={fieldMessage(errors, create.error, 'name')} />
          <button type="submit" className="button-primary" disabled={create.isPending}>
            {t('spaces.create')}
          </button>
        </form>
        <ProblemAlert problem={create.error} />
      </section>
    </>
  );
}
