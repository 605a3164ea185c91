import type { ReactNode } from 'react';
import { PageHeader } from './page-header.js';
import { ProblemAlert } from './problem-alert.js';

/**
 * The frame of every list page: its title (focused on arrival, in the document title), what stands
 * beside the title (links, badges), the first failed read, announced, then the page's content.
 */
export function PageShell({
  title,
  actions,
  problem,
  problemTitle,
  children,
}: {
  title: string;
  actions?: ReactNode;
  /** The error of the page's reads (the first one that failed), or nothing. */
  problem?: unknown;
  /** What the alert says before the server's message, when the default does not fit. */
  problemTitle?: string;
  children?: ReactNode;
}) {
  return (
    <>
      <PageHeader title={title}>{actions}</PageHeader>
      <ProblemAlert problem={problem} {...(problemTitle ? { title: problemTitle } : {})} />
      {children}
    </>
  );
}
