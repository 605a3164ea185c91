import { api, type Schema, unwrap } from '../../../api/index.js';

/** The two managed areas of an agent's file root (P-12.2). */
export type FileAreaName = 'wiki' | 'files';

/** One entry of a listed folder. */
export type FileEntry = Schema<'FileEntry'>;

/** A folder's listing. */
export type FileListing = Schema<'FileListing'>;

/** The query key of one folder's listing; the area's key is its prefix (to refresh everything after a change). */
export const fileKeys = {
  area: (appId: string, area: FileAreaName) => ['app-files', appId, area] as const,
  folder: (appId: string, area: FileAreaName, path: string) => ['app-files', appId, area, path] as const,
  content: (appId: string, area: FileAreaName, path: string) => ['app-files', appId, area, path, 'content'] as const,
};

/** Joins a folder and a name into a path below the area. */
export function joinPath(folder: string, name: string): string {
  return folder ? `${folder}/${name}` : name;
}

/** Lists a folder ('' is the area itself). */
export async function listFolder(appId: string, area: FileAreaName, path: string): Promise<FileListing> {
  if (path === '') return unwrap(api.GET('/apps/{appId}/files/{area}', { params: { path: { appId, area } } }));
  const listing = await unwrap(api.GET('/apps/{appId}/files/{area}/{path}', { params: { path: { appId, area, path } } }));
  return listing as FileListing;
}

/** A file's URL for the browser itself (an image preview, a download): the session cookie is enough for a read. */
export function fileUrl(appId: string, area: FileAreaName, path: string): string {
  return `/api/v1/apps/${encodeURIComponent(appId)}/files/${area}/${path.split('/').map(encodeURIComponent).join('/')}`;
}

/** Reads a file as text (for the preview of text and Markdown). */
export async function readText(appId: string, area: FileAreaName, path: string): Promise<string> {
  const text = await unwrap(
    api.GET('/apps/{appId}/files/{area}/{path}', { params: { path: { appId, area, path } }, parseAs: 'text' }),
  );
  return String(text);
}

/** Uploads one file's bytes as the raw body (`application/octet-stream`). */
export function uploadFile(appId: string, area: FileAreaName, path: string, file: Blob) {
  return unwrap(
    api.PUT('/apps/{appId}/files/{area}/{path}', {
      params: { path: { appId, area, path }, query: { kind: 'file' } },
      body: file as unknown as string,
      bodySerializer: (body: unknown) => body as BodyInit,
      headers: { 'content-type': 'application/octet-stream' },
    }),
  );
}

/** Makes a folder. */
export function makeFolder(appId: string, area: FileAreaName, path: string) {
  return unwrap(
    api.PUT('/apps/{appId}/files/{area}/{path}', { params: { path: { appId, area, path }, query: { kind: 'directory' } } }),
  );
}

/** Deletes a file, or a folder with everything in it. */
export function deleteEntry(appId: string, area: FileAreaName, path: string) {
  return unwrap(api.DELETE('/apps/{appId}/files/{area}/{path}', { params: { path: { appId, area, path } } }));
}

/** How the preview shows a file, from its name. */
export function previewKind(name: string): 'markdown' | 'text' | 'image' | 'none' {
  const extension = /\.([A-Za-z0-9]+)$/.exec(name)?.[1]?.toLowerCase() ?? '';
  if (['md', 'markdown'].includes(extension)) return 'markdown';
  if (['txt', 'csv', 'json', 'yaml', 'yml', 'log'].includes(extension)) return 'text';
  if (['png', 'jpg', 'jpeg', 'gif', 'webp'].includes(extension)) return 'image';
  return 'none';
}
