import type { ReactNode } from 'react';
import { useState } from 'react';
import type { Schema } from '../api/index.js';
import { type FieldErrors, Notice, ProblemAlert, useFieldChecks } from '../components/index.js';
import { type Translate, useT } from '../i18n/index.js';
import { useSaveVersion } from './resource-mutations.js';
import { useLatestVersion } from './resource-queries.js';

/** The resource pages whose newest version is edited in a `VersionCard`, by their message prefix. */
type VersionedPage = 'mcp' | 'remoteAgents';

/** What the card hands the page's fields: the values, their setter, the messages at each path. */
export interface VersionFields<Fields> {
  fields: Fields;
  onChange: (fields: Fields) => void;
  errors: FieldErrors;
  problem: unknown;
  readOnly?: boolean;
}

/**
 * The newest version of a versioned resource (an MCP server, a remote agent) as a form: it loads
 * the version, turns its content into the page's fields, checks them on save and saves a new
 * version, whose number it shows. The page brings its fields, its own action beside the save
 * button (a test call, "Read its card") and what that action found, below the form. One card for
 * every such page, so editing a version looks and behaves the same everywhere.
 */
export function VersionCard<Fields, Content>({
  spaceId,
  resource,
  canEdit,
  onSaved,
  messages,
  fieldsOf,
  contentOf,
  renderFields,
  otherwise,
  action,
  children,
}: {
  spaceId: string;
  resource: Schema<'Resource'>;
  canEdit: boolean;
  onSaved: () => void;
  /** The page's message prefix: `<prefix>.versionTitle`, `.loading`, `.savedAs` and `.saveVersion`. */
  messages: VersionedPage;
  /** The form's fields for a stored content, or undefined when this form cannot edit it. */
  fieldsOf: (content: Content) => Fields | undefined;
  /** Checks the fields: the content to save, or the problems by field path. */
  contentOf: (t: Translate, fields: Fields) => { content?: Content; errors: FieldErrors };
  renderFields: (props: VersionFields<Fields>) => ReactNode;
  /** Shown instead of the fields for a content the form cannot edit. */
  otherwise?: (content: Content | undefined) => ReactNode;
  /** The page's own button beside "Save version" (shown to editors). */
  action?: ReactNode;
  /** Below the form: what the page's action found. */
  children?: ReactNode;
}) {
  const t = useT();
  const latest = useLatestVersion(spaceId, resource);
  const [edited, setEdited] = useState<Fields | undefined>();
  const { errors, form, accept } = useFieldChecks();
  const save = useSaveVersion<Content>(spaceId, resource.id, onSaved);
  if (latest.isPending && resource.latestVersion > 0) return <p>{t(`${messages}.loading`, { name: resource.name })}</p>;
  const content = latest.data?.version.content as Content | undefined;
  const fields = edited ?? (content === undefined ? undefined : fieldsOf(content));
  const submit = () => {
    if (!fields) return;
    const checked = contentOf(t, fields);
    if (accept(checked.errors, checked.content !== undefined) && checked.content) save.mutate(checked.content);
  };
  const headingId = `${messages}-version`;
  return (
    <section className="card" aria-labelledby={headingId}>
      <h2 id={headingId}>{t(`${messages}.versionTitle`, { name: resource.name, version: resource.latestVersion })}</h2>
      <form
        ref={form}
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
        noValidate
      >
        {fields
          ? renderFields({ fields, onChange: setEdited, errors, problem: save.error, readOnly: !canEdit })
          : otherwise?.(content)}
        <ProblemAlert problem={latest.error ?? save.error} />
        {save.isSuccess ? <Notice>{t(`${messages}.savedAs`, { version: save.data.version.version })}</Notice> : null}
        <div className="button-row">
          {canEdit && fields ? (
            <button type="submit" className="button-primary" disabled={save.isPending || edited === undefined}>
              {t(`${messages}.saveVersion`)}
            </button>
          ) : null}
          {canEdit ? action : null}
        </div>
      </form>
      {children}
    </section>
  );
}
