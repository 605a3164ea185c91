import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useParams } from 'react-router';
import { api, queryKeys, unwrap } from '../../api/index.js';
import { DataTable, FormCard, PageShell, ProblemAlert, SelectField, TextField, useFormChecks } from '../../components/index.js';
import { useRoleName, useT } from '../../i18n/index.js';
import { type SpaceRole, useSpaceAccess } from '../../session/index.js';

const roles: SpaceRole[] = ['viewer', 'editor', 'admin', 'owner'];

/** Members of the space and their roles; admins add, re-role and remove members (owners manage owners). */
export function MembersPage() {
  const spaceId = useParams().spaceId ?? '';
  const access = useSpaceAccess(spaceId);
  const queryClient = useQueryClient();
  const t = useT();
  const roleName = useRoleName();
  const members = useQuery({
    queryKey: queryKeys.members(spaceId),
    queryFn: () => unwrap(api.GET('/spaces/{spaceId}/members', { params: { path: { spaceId } } })),
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: queryKeys.members(spaceId) });
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<SpaceRole>('editor');
  const add = useMutation({
    mutationFn: () => unwrap(api.POST('/spaces/{spaceId}/members', { params: { path: { spaceId } }, body: { email, role } })),
    onSuccess: () => {
      setEmail('');
      return refresh();
    },
  });
  const change = useMutation({
    mutationFn: (input: { userId: string; role: SpaceRole }) =>
      unwrap(
        api.PATCH('/spaces/{spaceId}/members/{userId}', {
          params: { path: { spaceId, userId: input.userId } },
          body: { role: input.role },
        }),
      ),
    onSettled: refresh,
  });
  const remove = useMutation({
    mutationFn: (userId: string) =>
      unwrap(api.DELETE('/spaces/{spaceId}/members/{userId}', { params: { path: { spaceId, userId } } })),
    onSettled: refresh,
  });
  const checks = useFormChecks(add);
  const submit = () => {
    if (checks.accept({ email: email.includes('@') ? undefined : t('members.emailMissing') })) add.mutate();
  };

  return (
    <PageShell title={t('members.title')} problem={members.error}>
      <ProblemAlert problem={change.error ?? remove.error} />
      <DataTable
        caption={t('members.caption')}
        columns={[
          { key: 'email', header: t('members.email'), cell: (member) => member.email },
          { key: 'name', header: t('members.name'), cell: (member) => member.displayName },
          {
            key: 'role',
            header: t('members.role'),
            cell: (member) =>
              access.canAdminister ? (
                <select
                  aria-label={t('members.roleOf', { email: member.email })}
                  value={member.role}
                  onChange={(event) => change.mutate({ userId: member.userId, role: event.target.value as SpaceRole })}
                >
                  {roles.map((item) => (
                    <option key={item} value={item}>
                      {roleName(item)}
                    </option>
                  ))}
                </select>
              ) : (
                roleName(member.role)
              ),
          },
          {
            key: 'actions',
            header: t('members.actions'),
            cell: (member) =>
              access.canAdminister ? (
                <button type="button" className="button-danger" onClick={() => remove.mutate(member.userId)}>
                  {t('members.remove')} <span className="visually-hidden">{member.email}</span>
                </button>
              ) : null,
          },
        ]}
        rows={members.data?.members}
        rowKey={(member) => member.userId}
      />
      {access.canAdminister ? (
        <FormCard
          id="add-member"
          title={t('members.add')}
          checks={checks}
          onSubmit={submit}
          submitLabel={t('members.addSubmit')}
          inline
        >
          <TextField label={t('members.email')} type="email" value={email} onValue={setEmail} error={checks.at('email')} />
          <SelectField label={t('members.role')} value={role} onChange={(event) => setRole(event.target.value as SpaceRole)}>
            {roles.map((item) => (
              <option key={item} value={item}>
                {roleName(item)}
              </option>
            ))}
          </SelectField>
        </FormCard>
      ) : (
        <p className="field-hint">{t('members.adminsOnly')}</p>
      )}
    </PageShell>
  );
}
