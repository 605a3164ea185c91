import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useRef, useState } from 'react';
import { useParams } from 'react-router';
import { api, queryKeys, unwrap } from '../../api/index.js';
import {
  DataTable,
  FormCard,
  fieldMessage,
  PageShell,
  ProblemAlert,
  SelectField,
  TextField,
  useFieldChecks,
} from '../../components/index.js';
import { type SpaceRole, useSpaceAccess } from '../../session/index.js';

const roles: SpaceRole[] = ['viewer', 'editor', 'admin', 'owner'];

/** Members of the space and their roles; admins add, re-role and remove members (owners manage owners). */
export function MembersPage() {
  const spaceId = useParams().spaceId ?? '';
  const access = useSpaceAccess(spaceId);
  const queryClient = useQueryClient();
  const members = useQuery({
    queryKey: queryKeys.members(spaceId),
    queryFn: () => unwrap(api.GET('/spaces/{spaceId}/members', { params: { path: { spaceId } } })),
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: queryKeys.members(spaceId) });
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<SpaceRole>('editor');
  const { errors, form, accept } = useFieldChecks();
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
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = { email: email.includes('@') ? undefined : 'Enter the email of an existing user.' };
    if (!accept(found)) return;
    add.mutate();
  };

  return (
    <PageShell title="Members" problem={members.error}>
      <ProblemAlert problem={change.error ?? remove.error} />
      <DataTable
        caption="Members of this space"
        columns={[
          { header: 'Email', cell: (member) => member.email },
          { header: 'Name', cell: (member) => member.displayName },
          {
            header: 'Role',
            cell: (member) =>
              access.canAdminister ? (
                <select
                  aria-label={`Role of ${member.email}`}
                  value={member.role}
                  onChange={(event) => change.mutate({ userId: member.userId, role: event.target.value as SpaceRole })}
                >
                  {roles.map((item) => (
                    <option key={item}>{item}</option>
                  ))}
                </select>
              ) : (
                member.role
              ),
          },
          {
            header: 'Actions',
            cell: (member) =>
              access.canAdminister ? (
                <button type="button" className="button-danger" onClick={() => remove.mutate(member.userId)}>
                  Remove <span className="visually-hidden">{member.email}</span>
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
          title="Add a member"
          formRef={form}
          onSubmit={submit}
          mutation={add}
          submitLabel="Add member"
          inline
        >
          <TextField
            label="Email"
            type="email"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            error={fieldMessage(errors, add.error, 'email')}
          />
          <SelectField label="Role" value={role} onChange={(event) => setRole(event.target.value as SpaceRole)}>
            {roles.map((item) => (
              <option key={item}>{item}</option>
            ))}
          </SelectField>
        </FormCard>
      ) : (
        <p className="field-hint">Only admins and owners manage members.</p>
      )}
    </PageShell>
  );
}
