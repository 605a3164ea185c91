import type { Schema } from '../api/index.js';
import { useT } from '../i18n/index.js';

/**
 * The list of a resource page (prompts, MCP servers): each resource's name as a button that
 * selects it, its newest version and description, and `emptyText` when there is none.
 */
export function ResourceList(props: {
  resources: readonly Schema<'Resource'>[] | undefined;
  selectedId: string | undefined;
  onSelect: (resourceId: string) => void;
  emptyText: string;
}) {
  const t = useT();
  return (
    <ul className="item-list">
      {props.resources?.map((resource) => (
        <li key={resource.id}>
          <button
            type="button"
            className="link-button"
            aria-pressed={resource.id === props.selectedId}
            onClick={() => props.onSelect(resource.id)}
          >
            {resource.name}
          </button>{' '}
          <span className="badge">{t('common.version', { version: resource.latestVersion })}</span> {resource.description}
        </li>
      ))}
      {props.resources?.length === 0 ? <li>{props.emptyText}</li> : null}
    </ul>
  );
}
