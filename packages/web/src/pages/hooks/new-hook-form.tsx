import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useRef, useState } from 'react';
import { api, unwrap } from '../../api/index.js';
import {
  CheckboxField,
  type FieldErrors,
  FormCard,
  fieldMessage,
  NameAndDescription,
  SelectField,
  TextField,
  useFieldChecks,
} from '../../components/index.js';
import { type HookTrigger, hookTriggers, isHookTrigger } from '../../resources/index.js';

const toolName = /^[A-Za-z0-9_.*?-]{1,200}$/;

/**
 * Creates a hook resource: its trigger point, the URL it is sent to, the tools it applies to (tool
 * trigger points only), its timeout and whether a failure denies the step. Every field is checked
 * here first and the server's answer is shown at its field as well.
 */
export function NewHookForm({ spaceId, onCreated }: { spaceId: string; onCreated: () => void }) {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [trigger, setTrigger] = useState<HookTrigger | ''>('');
  const [url, setUrl] = useState('');
  const [matcher, setMatcher] = useState('');
  const [timeout, setTimeoutText] = useState('10000');
  const [failClosed, setFailClosed] = useState(false);
  const { errors, form, accept } = useFieldChecks();
  const toolTrigger = hookTriggers.find((item) => item.trigger === trigger)?.toolCalls ?? false;
  const matched = matcher
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
  const create = useMutation({
    mutationFn: (chosen: HookTrigger) =>
      unwrap(
        api.POST('/spaces/{spaceId}/resources', {
          params: { path: { spaceId } },
          body: {
            type: 'hook',
            name,
            description,
            content: {
              trigger: chosen,
              kind: 'http',
              url,
              headers: {},
              ...(toolTrigger && matched.length > 0 ? { matcher: matched } : {}),
              timeoutMs: Number(timeout),
              failClosed,
            },
          },
        }),
      ),
    onSuccess: () => {
      setName('');
      setDescription('');
      setUrl('');
      setMatcher('');
      onCreated();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const timeoutMs = Number(timeout);
    const found: FieldErrors = {
      name: name.trim() ? undefined : 'Give the hook a name.',
      'content.trigger': trigger ? undefined : 'Choose when the hook is called.',
      'content.url': /^https?:\/\/\S+$/.test(url) ? undefined : 'Enter a full http(s) URL.',
      'content.matcher':
        toolTrigger && matched.some((item) => !toolName.test(item))
          ? 'Tool names or patterns (letters, digits, _ . - * ?), separated by commas.'
          : undefined,
      'content.timeoutMs':
        Number.isInteger(timeoutMs) && timeoutMs >= 100 && timeoutMs <= 600_000
          ? undefined
          : 'A whole number of milliseconds from 100 to 600000.',
    };
    if (accept(found) && isHookTrigger(trigger)) create.mutate(trigger);
  };
  return (
    <FormCard id="new-hook" title="New hook" formRef={form} onSubmit={submit} mutation={create} submitLabel="Create hook">
      <NameAndDescription
        name={name}
        onName={setName}
        nameError={fieldMessage(errors, create.error, 'name')}
        description={description}
        onDescription={setDescription}
      >
        <SelectField
          label="Trigger point"
          value={trigger}
          hint={hookTriggers.find((item) => item.trigger === trigger)?.when}
          onChange={(event) => setTrigger(event.target.value as HookTrigger | '')}
          error={fieldMessage(errors, create.error, 'content.trigger')}
        >
          <option value="">Choose…</option>
          {hookTriggers.map((item) => (
            <option key={item.trigger} value={item.trigger}>
              {item.trigger}
            </option>
          ))}
        </SelectField>
        <TextField
          label="URL"
          value={url}
          hint="The platform POSTs the step (and the run's identity) here as JSON and reads the decision from the answer."
          onChange={(event) => setUrl(event.target.value)}
          error={fieldMessage(errors, create.error, 'content.url')}
        />
        {toolTrigger ? (
          <TextField
            label="Applies to tools"
            value={matcher}
            hint="Tool names or patterns separated by commas, such as write_file, http_*. Empty: every tool call."
            onChange={(event) => setMatcher(event.target.value)}
            error={fieldMessage(errors, create.error, 'content.matcher')}
          />
        ) : null}
        <TextField
          label="Timeout (ms)"
          inputMode="numeric"
          value={timeout}
          hint="Platform default: 10000. A hook that does not answer in time has failed."
          onChange={(event) => setTimeoutText(event.target.value)}
          error={fieldMessage(errors, create.error, 'content.timeoutMs')}
        />
      </NameAndDescription>
      <CheckboxField
        label="Deny the step when the hook fails (fail closed)"
        hint="Otherwise a failed hook is skipped and the step goes on."
        checked={failClosed}
        onChange={(event) => setFailClosed(event.target.checked)}
      />
    </FormCard>
  );
}
