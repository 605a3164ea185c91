import { type ReactNode, useEffect, useRef } from 'react';

/**
 * The page title. It takes focus when the page opens, so that keyboard and screen-reader users
 * land at the start of the new page after a client-side navigation.
 */
export function PageHeader({ title, children }: { title: string; children?: ReactNode }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    heading.current?.focus();
    document.title = `${title} · AgentLoom`;
  }, [title]);
  return (
    <header className="page-header">
      <h1 tabIndex={-1} ref={heading}>
        {title}
      </h1>
      {children ? <div className="page-header-extra">{children}</div> : null}
    </header>
  );
}
