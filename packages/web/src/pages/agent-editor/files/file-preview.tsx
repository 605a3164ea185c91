import { useQuery } from '@tanstack/react-query';
import { useT } from '../../../i18n/index.js';
import { type FileAreaName, fileKeys, fileUrl, previewKind, readText } from './file-api.js';
import type { FileSelection } from './file-tree.js';
import { MarkdownView } from './markdown-view.js';

/** The selected file shown as Markdown, text or an image, with its size and a download link. */
export function FilePreview({ appId, area, selection }: { appId: string; area: FileAreaName; selection: FileSelection }) {
  const t = useT();
  const name = selection.path.split('/').at(-1) ?? selection.path;
  const kind = previewKind(name);
  const text = useQuery({
    queryKey: fileKeys.content(appId, area, selection.path),
    queryFn: () => readText(appId, area, selection.path),
    enabled: kind === 'markdown' || kind === 'text',
  });
  const url = fileUrl(appId, area, selection.path);
  return (
    <section aria-label={t('files.preview')} className="file-preview" data-testid="file-preview">
      <h3>{name}</h3>
      <p className="field-hint">
        {selection.size !== undefined ? t('files.size', { size: selection.size }) : null}{' '}
        <a href={url} download={name}>
          {t('files.download')}
        </a>
      </p>
      {kind === 'image' ? <img src={url} alt={name} className="file-preview-image" /> : null}
      {kind === 'none' ? <p className="field-hint">{t('files.noPreview')}</p> : null}
      {(kind === 'markdown' || kind === 'text') && text.error ? <p className="field-error">{t('files.previewFailed')}</p> : null}
      {kind === 'markdown' && text.data !== undefined ? <MarkdownView text={text.data} /> : null}
      {kind === 'text' && text.data !== undefined ? <pre className="pre-wrap file-preview-text">{text.data}</pre> : null}
    </section>
  );
}
