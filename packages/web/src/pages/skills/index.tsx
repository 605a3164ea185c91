import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useRef, useState } from 'react';
import { useParams } from 'react-router';
import { ApiProblem, api, unwrap } from '../../api/index.js';
import {
  DataTable,
  type FieldErrors,
  fieldMessage,
  PageShell,
  ProblemAlert,
  TextField,
  useFieldChecks,
} from '../../components/index.js';
import { useT } from '../../i18n/index.js';
import { resourceColumns, useResources } from '../../resources/index.js';
import { useSpaceAccess } from '../../session/index.js';

/** The per-file problems of a refused skill package (`details.problems`). */
function packageProblems(problem: unknown): { path: string; message: string }[] {
  if (!(problem instanceof ApiProblem) || !Array.isArray(problem.details.problems)) return [];
  return (problem.details.problems as { path?: unknown; message?: unknown }[]).map((item) => ({
    path: String(item.path ?? ''),
    message: String(item.message ?? ''),
  }));
}

async function base64Of(file: File): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let index = 0; index < bytes.length; index += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(index, index + 0x8000));
  return btoa(binary);
}

/** The path of a chosen file inside the skill folder (the folder's own name is dropped). */
function packagePath(file: File): string {
  const relative = file.webkitRelativePath || file.name;
  return relative.includes('/') ? relative.slice(relative.indexOf('/') + 1) : relative;
}

/**
 * Skills: uploaded as a zip or as the files of a folder, validated by the server with the SDK.
 * A refused upload removes the entry it created, so no empty skill is left behind; the problems
 * are listed per file.
 */
export function SkillsPage() {
  const spaceId = useParams().spaceId ?? '';
  const access = useSpaceAccess(spaceId);
  const skills = useResources(spaceId, 'skill');
  const t = useT();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  const { errors, form, accept } = useFieldChecks();
  const fileInput = useRef<HTMLInputElement>(null);
  const upload = useMutation({
    mutationFn: async () => {
      const created = await unwrap(
        api.POST('/spaces/{spaceId}/resources', { params: { path: { spaceId } }, body: { type: 'skill', name, description } }),
      );
      const resourceId = created.resource.id;
      const single = files.length === 1 ? files[0] : undefined;
      try {
        if (single && /\.zip$/i.test(single.name)) {
          return await unwrap(
            api.POST('/spaces/{spaceId}/resources/{resourceId}/versions', {
              params: { path: { spaceId, resourceId } },
              body: single as unknown as string,
              bodySerializer: (body: unknown) => body as Blob,
              headers: { 'content-type': 'application/zip' },
            }),
          );
        }
        const packaged = await Promise.all(
          files.map(async (file) => ({ path: packagePath(file), contentBase64: await base64Of(file) })),
        );
        return await unwrap(
          api.POST('/spaces/{spaceId}/resources/{resourceId}/versions', {
            params: { path: { spaceId, resourceId } },
            body: { files: packaged },
          }),
        );
      } catch (error) {
        // The entry has no version yet: remove it so a refused upload leaves nothing behind.
        await unwrap(api.DELETE('/spaces/{spaceId}/resources/{resourceId}', { params: { path: { spaceId, resourceId } } })).catch(
          () => undefined,
        );
        throw error;
      }
    },
    onSuccess: () => {
      setName('');
      setDescription('');
      setFiles([]);
      if (fileInput.current) fileInput.current.value = '';
    },
    onSettled: () => skills.refresh(),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found: FieldErrors = {
      name: /^[a-z0-9]+(-[a-z0-9]+)*$/.test(name) ? undefined : t('skills.nameInvalid'),
      files: files.length > 0 ? undefined : t('skills.filesMissing'),
    };
    if (!accept(found)) return;
    upload.mutate();
  };
  const problems = packageProblems(upload.error);
  return (
    <PageShell title={t('skills.title')} problem={skills.error}>
      <DataTable
        caption={t('skills.caption')}
        columns={resourceColumns(t, t('skills.skill'), (skill) =>
          skill.latestVersion > 0 ? t('common.version', { version: skill.latestVersion }) : t('skills.noPackage'),
        )}
        rows={skills.data?.resources}
        rowKey={(skill) => skill.id}
        empty={t('skills.empty')}
      />
      {access.canEdit ? (
        <section className="card" aria-labelledby="upload-skill">
          <h2 id="upload-skill">{t('skills.upload')}</h2>
          <form ref={form} onSubmit={submit} noValidate>
            <div className="form-grid">
              <TextField
                label={t('skills.name')}
                value={name}
                onValue={setName}
                error={fieldMessage(errors, upload.error, 'name')}
              />
              <TextField label={t('skills.description')} value={description} onValue={setDescription} />
            </div>
            <div className="field">
              <label htmlFor="skill-files">{t('skills.package')}</label>
              <input
                id="skill-files"
                ref={fileInput}
                type="file"
                multiple
                aria-invalid={errors.files ? true : undefined}
                aria-describedby={errors.files ? 'skill-files-error' : undefined}
                onChange={(event) => setFiles([...(event.target.files ?? [])])}
              />
              {errors.files ? (
                <p className="field-error" id="skill-files-error">
                  {errors.files}
                </p>
              ) : null}
            </div>
            <ProblemAlert problem={upload.error} title={t('skills.refused')} />
            {problems.length > 0 ? (
              <ul className="file-problems" aria-label={t('skills.problemsPerFile')}>
                {problems.map((item) => (
                  <li key={`${item.path}:${item.message}`}>
                    <code>{item.path}</code>: {item.message}
                  </li>
                ))}
              </ul>
            ) : null}
            <button type="submit" className="button-primary" disabled={upload.isPending}>
              {t('skills.submit')}
            </button>
          </form>
        </section>
      ) : null}
    </PageShell>
  );
}
