import type { ReactNode } from 'react';
import type { Schema } from '../api/index.js';
import type { Column } from '../components/index.js';
import type { Translate } from '../i18n/index.js';

/** A shared resource as the lists show it. */
type Resource = Schema<'Resource'>;

/**
 * The columns of a resource list (HTTP tools, skills): its name as code, its description and its
 * newest version (`v3` unless the page words it otherwise).
 */
export function resourceColumns(
  t: Translate,
  nameHeader: string,
  version: (resource: Resource) => ReactNode = (resource) => t('common.version', { version: resource.latestVersion }),
): Column<Resource>[] {
  return [
    { key: 'name', header: nameHeader, cell: (resource) => <code>{resource.name}</code> },
    { key: 'description', header: t('resources.description'), cell: (resource) => resource.description },
    { key: 'version', header: t('resources.version'), cell: version },
  ];
}
