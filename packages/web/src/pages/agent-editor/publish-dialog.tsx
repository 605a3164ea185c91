import * as Dialog from '@radix-ui/react-dialog';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { FormattedMessage } from 'react-intl';
import { Link } from 'react-router';
import { api, queryKeys, unwrap } from '../../api/index.js';
import { ProblemAlert, TextAreaField } from '../../components/index.js';
import { useT } from '../../i18n/index.js';

/**
 * Publishing: release notes, then an immutable release of the saved draft. A refused publish
 * (e.g. `draft-invalid`) is shown in the dialog, with its issues shown at their fields by the editor.
 */
export function PublishDialog({
  appId,
  spaceId,
  disabled,
  onRefused,
  releasesPath = `/spaces/${spaceId}/agents/${appId}/releases`,
  description,
  initiallyOpen = false,
}: {
  appId: string;
  spaceId: string;
  disabled: boolean;
  onRefused: (error: unknown) => void;
  /** Where "See the releases" leads (an agent's or a workflow's releases page). */
  releasesPath?: string;
  /** What publishing does to runs (agents interrupt them, workflows do not). */
  description?: string;
  /** Open from the start (the workflow editor loads the dialog on the first press of its Publish button). */
  initiallyOpen?: boolean;
}) {
  const [open, setOpen] = useState(initiallyOpen);
  const t = useT();
  const [notes, setNotes] = useState('');
  const queryClient = useQueryClient();
  const publish = useMutation({
    mutationFn: () => unwrap(api.POST('/apps/{appId}/releases', { params: { path: { appId } }, body: { notes } })),
    onSuccess: () => {
      setNotes('');
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.releases(appId) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.app(appId) }),
      ]);
    },
    onError: onRefused,
  });
  return (
    <Dialog.Root
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (next) publish.reset();
      }}
    >
      <Dialog.Trigger asChild>
        <button type="button" className="button-primary" disabled={disabled}>
          {t('publish.open')}
        </button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog">
          <Dialog.Title>{t('publish.title')}</Dialog.Title>
          <Dialog.Description>{description ?? t('publish.agentDescription')}</Dialog.Description>
          {publish.isSuccess ? (
            <output className="alert alert-success">
              <FormattedMessage
                id="publish.published"
                values={{
                  version: publish.data.release.version,
                  link: (text) => <Link to={releasesPath}>{text}</Link>,
                }}
              />
            </output>
          ) : (
            <form
              onSubmit={(event) => {
                event.preventDefault();
                publish.mutate();
              }}
            >
              <TextAreaField label={t('publish.notes')} rows={4} value={notes} onValue={setNotes} />
              <ProblemAlert problem={publish.error} title={t('publish.refused')} />
              <div className="button-row">
                <button type="submit" className="button-primary" disabled={publish.isPending}>
                  {publish.isPending ? t('publish.publishing') : t('publish.submit')}
                </button>
                <Dialog.Close asChild>
                  <button type="button">{t('publish.cancel')}</button>
                </Dialog.Close>
              </div>
            </form>
          )}
          {publish.isSuccess ? (
            <Dialog.Close asChild>
              <button type="button">{t('publish.close')}</button>
            </Dialog.Close>
          ) : null}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
