import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../../api/index.js';
import {
  CheckboxField,
  type FieldErrors,
  FormCard,
  NameAndDescription,
  SelectField,
  TextField,
  useFormChecks,
} from '../../components/index.js';
import { useT } from '../../i18n/index.js';
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
  const t = useT();
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
  const checks = useFormChecks(create);
  const submit = () => {
    const timeoutMs = Number(timeout);
    const found: FieldErrors = {
      name: name.trim() ? undefined : t('hookForm.nameMissing'),
      'content.trigger': trigger ? undefined : t('hookForm.triggerMissing'),
      'content.url': /^https?:\/\/\S+$/.test(url) ? undefined : t('hookForm.urlInvalid'),
      'content.matcher': toolTrigger && matched.some((item) => !toolName.test(item)) ? t('hookForm.matcherInvalid') : undefined,
      'content.timeoutMs':
        Number.isInteger(timeoutMs) && timeoutMs >= 100 && timeoutMs <= 600_000 ? undefined : t('hookForm.timeoutInvalid'),
    };
    if (checks.accept(found) && isHookTrigger(trigger)) create.mutate(trigger);
  };
  return (
    <FormCard id="new-hook" title={t('hookForm.title')} checks={checks} onSubmit={submit} submitLabel={t('hookForm.create')}>
      <NameAndDescription
        name={name}
        onName={setName}
        nameError={checks.at('name')}
        description={description}
        onDescription={setDescription}
      >
        <SelectField
          label={t('hookForm.trigger')}
          value={trigger}
          hint={trigger ? t(`hookTrigger.${trigger}`) : undefined}
          onChange={(event) => setTrigger(event.target.value as HookTrigger | '')}
          error={checks.at('content.trigger')}
        >
          <option value="">{t('hookForm.choose')}</option>
          {hookTriggers.map((item) => (
            <option key={item.trigger} value={item.trigger}>
              {item.trigger}
            </option>
          ))}
        </SelectField>
        <TextField
          label={t('hookForm.url')}
          value={url}
          hint={t('hookForm.urlHint')}
          onValue={setUrl}
          error={checks.at('content.url')}
        />
        {toolTrigger ? (
          <TextField
            label={t('hookForm.appliesTo')}
            value={matcher}
            hint={t('hookForm.appliesToHint')}
            onValue={setMatcher}
            error={checks.at('content.matcher')}
          />
        ) : null}
        <TextField
          label={t('hookForm.timeout')}
          inputMode="numeric"
          value={timeout}
          hint={t('hookForm.timeoutHint')}
          onValue={setTimeoutText}
          error={checks.at('content.timeoutMs')}
        />
      </NameAndDescription>
      <CheckboxField
        label={t('hookForm.failClosed')}
        hint={t('hookForm.failClosedHint')}
        checked={failClosed}
        onChange={(event) => setFailClosed(event.target.checked)}
      />
    </FormCard>
  );
}
