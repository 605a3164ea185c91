/**
 * The media type a stored file is answered with, from its name, and whether a browser may show
 * it inline (text, Markdown, JSON and raster images the Files tab previews). Everything else is an
 * `application/octet-stream` attachment; nothing is ever sniffed from the content.
 */
const types: Readonly<Record<string, string>> = {
  txt: 'text/plain; charset=utf-8',
  md: 'text/markdown; charset=utf-8',
  markdown: 'text/markdown; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  // JSON files are shown as text: `application/json` answers are the API's own listings.
  json: 'text/plain; charset=utf-8',
  yaml: 'text/plain; charset=utf-8',
  yml: 'text/plain; charset=utf-8',
  log: 'text/plain; charset=utf-8',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  pdf: 'application/pdf',
};

/** The answer's media type for a file name, and whether it is shown inline. */
export function contentTypeOf(name: string): { type: string; inline: boolean } {
  const extension = /\.([A-Za-z0-9]+)$/.exec(name)?.[1]?.toLowerCase() ?? '';
  const type = types[extension];
  return type ? { type, inline: true } : { type: 'application/octet-stream', inline: false };
}

/** Every media type a file may be answered with (without parameters), for the API document. */
export const fileMediaTypes: readonly string[] = [
  ...new Set([...Object.values(types).map((type) => type.split(';')[0] as string), 'application/octet-stream']),
];
