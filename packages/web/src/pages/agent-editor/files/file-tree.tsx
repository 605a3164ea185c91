import { useQuery } from '@tanstack/react-query';
import { useT } from '../../../i18n/index.js';
import { type FileAreaName, type FileEntry, fileKeys, joinPath, listFolder } from './file-api.js';

/** What is selected in the tree: a file or a folder, by its path below the area. */
export interface FileSelection {
  path: string;
  type: 'file' | 'directory';
  size?: number;
}

interface TreeProps {
  appId: string;
  area: FileAreaName;
  expanded: ReadonlySet<string>;
  selected: FileSelection | undefined;
  onToggle: (path: string) => void;
  onSelect: (selection: FileSelection) => void;
}

/**
 * The area's folders and files as a nested list: a folder opens (loading its listing) when
 * clicked, a file is selected for the preview. Links and special files are listed, not opened.
 */
export function FileTree(props: TreeProps & { label: string }) {
  return (
    <nav aria-label={props.label} className="file-tree">
      <FolderListing {...props} path="" />
    </nav>
  );
}

function FolderListing(props: TreeProps & { path: string }) {
  const t = useT();
  const listing = useQuery({
    queryKey: fileKeys.folder(props.appId, props.area, props.path),
    queryFn: () => listFolder(props.appId, props.area, props.path),
  });
  if (listing.isPending) return <p className="field-hint">{t('files.loading')}</p>;
  if (listing.error) return <p className="field-error">{t('files.loadFailed')}</p>;
  if (listing.data.entries.length === 0) return <p className="field-hint">{t('files.empty')}</p>;
  return (
    <ul className="file-tree-list">
      {listing.data.entries.map((entry) => (
        <EntryItem key={entry.name} {...props} entry={entry} path={joinPath(props.path, entry.name)} />
      ))}
    </ul>
  );
}

function EntryItem(props: TreeProps & { entry: FileEntry; path: string }) {
  const { entry, path, selected } = props;
  const isSelected = selected?.path === path;
  if (entry.type === 'directory') {
    const open = props.expanded.has(path);
    return (
      <li>
        <button
          type="button"
          className="file-tree-item"
          aria-expanded={open}
          aria-current={isSelected ? 'true' : undefined}
          data-path={path}
          onClick={() => {
            props.onToggle(path);
            props.onSelect({ path, type: 'directory' });
          }}
        >
          <span aria-hidden="true" className="file-tree-caret">
            {open ? '▾' : '▸'}
          </span>
          <EntryIcon folder /> {entry.name}
        </button>
        {open ? <FolderListing {...props} path={path} /> : null}
      </li>
    );
  }
  if (entry.type !== 'file') {
    return (
      <li>
        <span className="file-tree-item file-tree-other">{entry.name}</span>
      </li>
    );
  }
  return (
    <li>
      <button
        type="button"
        className="file-tree-item"
        aria-current={isSelected ? 'true' : undefined}
        data-path={path}
        onClick={() => props.onSelect({ path, type: 'file', size: entry.size })}
      >
        <span aria-hidden="true" className="file-tree-caret" />
        <EntryIcon /> {entry.name}
      </button>
    </li>
  );
}

/** A small folder or page outline (drawn, so it looks the same without an emoji font). */
function EntryIcon({ folder = false }: { folder?: boolean }) {
  return (
    <svg className="file-tree-icon" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
      {folder ? (
        <path d="M1.5 3.5h4l1.5 1.5h7.5v8h-13z" fill="#f2c94c" stroke="#b8860b" />
      ) : (
        <path d="M3.5 1.5h6l3 3v10h-9z M9.5 1.5v3h3" fill="#fff" stroke="#5f6b7a" />
      )}
    </svg>
  );
}
