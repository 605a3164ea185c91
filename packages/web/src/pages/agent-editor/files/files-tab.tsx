import './files.css';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useRef, useState } from 'react';
import { Notice, ProblemAlert } from '../../../components/index.js';
import { useT } from '../../../i18n/index.js';
import { deleteEntry, type FileAreaName, fileKeys, joinPath, makeFolder, uploadFile } from './file-api.js';
import { FilePreview } from './file-preview.js';
import { type FileSelection, FileTree } from './file-tree.js';

/**
 * The agent editor's Files tab (issue 36, P-12.2): the agent's `wiki/` and `files/` as a tree;
 * editors upload files and make folders in the selected folder and delete what is selected;
 * everyone previews text, Markdown and images. The files are live, not part of the draft: runs
 * of every release read them at `/mounts/wiki` and `/mounts/files`.
 */
export function FilesTab({ appId, readOnly }: { appId: string; readOnly: boolean }) {
  const t = useT();
  const queryClient = useQueryClient();
  const ids = useId();
  const fileInput = useRef<HTMLInputElement>(null);
  const [area, setArea] = useState<FileAreaName>('files');
  const [expanded, setExpanded] = useState<Set<string>>(new Set());
  const [selected, setSelected] = useState<FileSelection | undefined>();
  const [confirming, setConfirming] = useState(false);
  const [folderName, setFolderName] = useState('');
  const [progress, setProgress] = useState<string | undefined>();
  const [uploadedCount, setUploadedCount] = useState<number | undefined>();

  const targetFolder =
    selected?.type === 'directory' ? selected.path : selected ? selected.path.split('/').slice(0, -1).join('/') : '';
  const refresh = () => queryClient.invalidateQueries({ queryKey: fileKeys.area(appId, area) });
  const openFolder = (path: string) =>
    setExpanded((current) => {
      const next = new Set(current);
      for (let index = 1; index <= path.split('/').length; index += 1) next.add(path.split('/').slice(0, index).join('/'));
      return next;
    });

  const upload = useMutation({
    mutationFn: async (files: File[]) => {
      for (const file of files) {
        setProgress(file.name);
        await uploadFile(appId, area, joinPath(targetFolder, file.name), file);
      }
      return files.length;
    },
    onSuccess: (count) => {
      setUploadedCount(count);
      if (targetFolder) openFolder(targetFolder);
    },
    onSettled: () => {
      setProgress(undefined);
      if (fileInput.current) fileInput.current.value = '';
      void refresh();
    },
  });
  const folder = useMutation({
    mutationFn: (name: string) => makeFolder(appId, area, joinPath(targetFolder, name)),
    onSuccess: (result) => {
      setFolderName('');
      openFolder(result.path);
      setSelected({ path: result.path, type: 'directory' });
      void refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (path: string) => deleteEntry(appId, area, path),
    onSuccess: () => {
      setSelected(undefined);
      setConfirming(false);
      void refresh();
    },
  });

  const chooseArea = (next: FileAreaName) => {
    setArea(next);
    setSelected(undefined);
    setExpanded(new Set());
    setConfirming(false);
    upload.reset();
    setUploadedCount(undefined);
  };
  const selectedName = selected?.path.split('/').at(-1) ?? '';
  const areaName = area === 'wiki' ? t('files.area.wiki') : t('files.area.files');

  return (
    <div className="files-tab">
      <p className="field-hint">{t('files.intro')}</p>
      {readOnly ? <p className="alert alert-info">{t('files.readOnly')}</p> : null}
      <fieldset className="radio-row">
        <legend>{t('files.area')}</legend>
        {(['files', 'wiki'] as const).map((name) => (
          <label key={name}>
            <input type="radio" name={`${ids}-area`} checked={area === name} onChange={() => chooseArea(name)} />{' '}
            {name === 'wiki' ? t('files.area.wiki') : t('files.area.files')}
          </label>
        ))}
      </fieldset>
      <div className="files-layout">
        <div className="files-side">
          <FileTree
            key={area}
            label={t('files.tree', { area: areaName })}
            appId={appId}
            area={area}
            expanded={expanded}
            selected={selected}
            onToggle={(path) =>
              setExpanded((current) => {
                const next = new Set(current);
                if (next.has(path)) next.delete(path);
                else next.add(path);
                return next;
              })
            }
            onSelect={(selection) => {
              setSelected(selection);
              setConfirming(false);
              remove.reset();
            }}
          />
          {readOnly ? null : (
            <div className="files-actions">
              <p className="field-hint" data-testid="files-target">
                {t('files.target', { folder: targetFolder ? `${areaName}/${targetFolder}` : `${areaName} (${t('files.top')})` })}
              </p>
              <div className="field">
                <label htmlFor={`${ids}-upload`}>{t('files.upload')}</label>
                <input
                  id={`${ids}-upload`}
                  ref={fileInput}
                  type="file"
                  multiple
                  disabled={upload.isPending}
                  onChange={(event) => {
                    const files = [...(event.target.files ?? [])];
                    setUploadedCount(undefined);
                    if (files.length > 0) upload.mutate(files);
                  }}
                />
              </div>
              {progress ? <p className="field-hint">{t('files.uploading', { name: progress })}</p> : null}
              {uploadedCount !== undefined ? <Notice>{t('files.uploaded', { count: uploadedCount })}</Notice> : null}
              <ProblemAlert problem={upload.error} title={t('files.uploadFailed')} />
              <form
                className="files-folder-form"
                onSubmit={(event) => {
                  event.preventDefault();
                  if (folderName.trim()) folder.mutate(folderName.trim());
                }}
              >
                <div className="field">
                  <label htmlFor={`${ids}-folder`}>{t('files.folderName')}</label>
                  <input id={`${ids}-folder`} value={folderName} onChange={(event) => setFolderName(event.target.value)} />
                </div>
                <button type="submit" disabled={folder.isPending || !folderName.trim()}>
                  {t('files.createFolder')}
                </button>
              </form>
              <ProblemAlert problem={folder.error} title={t('files.folderFailed')} />
            </div>
          )}
        </div>
        <div className="files-main">
          {selected?.type === 'file' ? <FilePreview appId={appId} area={area} selection={selected} /> : null}
          {selected?.type === 'directory' ? <p>{t('files.folderSelected', { name: selectedName })}</p> : null}
          {selected ? null : <p className="field-hint">{t('files.selectHint')}</p>}
          {selected && !readOnly ? (
            <div className="button-row">
              {confirming ? (
                <>
                  <span role="alert">
                    {t('files.deleteConfirm', { name: selectedName, isFolder: String(selected.type === 'directory') })}
                  </span>
                  <button
                    type="button"
                    className="button-danger"
                    disabled={remove.isPending}
                    onClick={() => remove.mutate(selected.path)}
                  >
                    {t('files.deleteYes')}
                  </button>
                  <button type="button" onClick={() => setConfirming(false)}>
                    {t('files.cancel')}
                  </button>
                </>
              ) : (
                <button type="button" className="button-danger" onClick={() => setConfirming(true)}>
                  {t('files.delete', { name: selectedName })}
                </button>
              )}
            </div>
          ) : null}
          <ProblemAlert problem={remove.error} title={t('files.deleteFailed')} />
        </div>
      </div>
    </div>
  );
}
