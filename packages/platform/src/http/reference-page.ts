/** The subset of an OpenAPI document the reference page reads. */
interface DocumentLike {
  info: { title: string; description?: string };
  paths?: Record<string, Record<string, { summary?: string } | undefined> | undefined>;
}

const escapeHtml = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

/** The reference page's policy: no script at all, its one inline style sheet, never in a frame. */
export const referencePageContentSecurityPolicy = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'";

/**
 * A self-contained HTML reference of the API (no scripts, no CDN: the server may run offline):
 * every operation with its summary, and a link to the machine-readable document.
 */
export function renderReferencePage(document: DocumentLike): string {
  const rows: string[] = [];
  for (const [path, operations] of Object.entries(document.paths ?? {})) {
    for (const [method, operation] of Object.entries(operations ?? {})) {
      rows.push(
        `<tr><td><code>${method.toUpperCase()}</code></td><td><code>${escapeHtml(path)}</code></td><td>${escapeHtml(operation?.summary ?? '')}</td></tr>`,
      );
    }
  }
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(document.info.title)}</title>
<style>body{font-family:system-ui,sans-serif;margin:2rem;max-width:70rem}td{padding:.25rem .75rem;vertical-align:top;border-bottom:1px solid #ddd}</style></head>
<body><h1>${escapeHtml(document.info.title)}</h1><p>${escapeHtml(document.info.description ?? '')}</p>
<p>Machine-readable: <a href="openapi.json">openapi.json</a> (OpenAPI 3.1). Base path <code>/api/v1</code>.</p>
<table><thead><tr><th>Method</th><th>Path</th><th>Purpose</th></tr></thead><tbody>${rows.join('')}</tbody></table></body></html>`;
}
