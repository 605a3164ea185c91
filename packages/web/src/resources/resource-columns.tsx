import type { ReactNode } from 'react';
import type { Schema } from '../api/index.js';
import type { Column } from '../components/index.js';

/** A shared resource as the lists show it. */
type Resource = Schema<'Resource'>;

/**
 * The columns of a resource list (HTTP tools, skills): its name as code, its description and its
 * newest version (`v3` unless the page words it otherwise).
 */
export function resourceColumns(
  nameHeader: string,
  version: (resource: Resource) => ReactNode = (resource) => `v${resource.latestVersion}`,
): Column<Resource>[] {
  return [
    { header: nameHeader, cell: (resource) => <code>{resource.name}</code> },
    { header: 'Description', cell: (resource) => resource.description },
    { header: 'Version', cell: version },
  ];
}
