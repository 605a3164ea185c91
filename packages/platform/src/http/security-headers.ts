import type { MiddlewareHandler } from 'hono';
import { isHttpsRequest } from './request-origin.js';
import type { PlatformEnvironment } from './services.js';

/**
 * The console's Content-Security-Policy (P-15.4): its own scripts, styles, images and API only;
 * no inline script, no plugin, no `<base>`, and never inside a frame (`frame-ancestors 'none'`,
 * against clickjacking). Inline `<style>` elements need the page's `nonce` (the dialogs' scroll
 * lock adds one); React sets style properties through the CSSOM, which the policy allows. The
 * built console runs under it with no violation (checked in Chromium by
 * `packages/web/test/console.browser.test.ts`).
 */
export function consoleContentSecurityPolicy(nonce?: string): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    nonce ? `style-src 'self' 'nonce-${nonce}'` : "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The policy of everything that is not a page (JSON, metrics, files): load nothing, frame nowhere. */
const dataContentSecurityPolicy = "default-src 'none'; frame-ancestors 'none'";

/** HSTS for a year, sent only on HTTPS (directly or through a trusted proxy); subdomains are left alone. */
const strictTransportSecurity = 'max-age=31536000';

/**
 * Security headers on every answer (P-15.4): `X-Content-Type-Options: nosniff`,
 * `Referrer-Policy: no-referrer`, `X-Frame-Options: DENY` for browsers without
 * `frame-ancestors`, a CSP (the console's for HTML, `default-src 'none'` for the rest, unless the
 * route set its own), and HSTS when the request came over HTTPS.
 */
export function securityHeaders(): MiddlewareHandler<PlatformEnvironment> {
  return async (c, next) => {
    await next();
    const headers = c.res.headers;
    const isHtml = (headers.get('content-type') ?? '').startsWith('text/html');
    if (!headers.has('content-security-policy'))
      headers.set('content-security-policy', isHtml ? consoleContentSecurityPolicy() : dataContentSecurityPolicy);
    headers.set('x-content-type-options', 'nosniff');
    headers.set('referrer-policy', 'no-referrer');
    headers.set('x-frame-options', 'DENY');
    if (isHttpsRequest(c)) headers.set('strict-transport-security', strictTransportSecurity);
  };
}
