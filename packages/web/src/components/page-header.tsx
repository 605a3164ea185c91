import { type ReactNode, useEffect, useRef } from 'react';
import { useT } from '../i18n/index.js';

/**
 * The page title. It takes focus when the page opens, so that keyboard and screen-reader users
 * land at the start of the new page after a client-side navigation.
 */
export function PageHeader({ title, children }: { title: string; children?: ReactNode }) {
  const heading = useRef<HTMLHeadingElement>(null);
  const documentTitle = useT()('shell.documentTitle', { title });
  // Focus follows a new page (a new title), not a change of language (the switch keeps focus).
  useEffect(() => {
    if (title) heading.current?.focus();
  }, [title]);
  useEffect(() => {
    document.title = documentTitle;
  }, [documentTitle]);
  return (
    <header className="page-header">
      <h1 tabIndex={-1} ref={heading}>
        {title}
      </h1>
      {children ? <div className="page-header-extra">{children}</div> : null}
    </header>
  );
}
