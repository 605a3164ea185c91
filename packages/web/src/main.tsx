import { QueryClientProvider } from '@tanstack/react-query';
import { setNonce } from 'get-nonce';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { prefetchFirstData } from './app/first-data.js';
import { createQueryClient } from './app/query-client.js';
import { consoleRoutes } from './app/routes.js';
import { I18nProvider, initialLocale, loadCatalogue } from './i18n/index.js';
import './styles.css';

// The server's Content-Security-Policy allows only its own style sheets plus <style> elements that
// carry this page's nonce; the dialogs' scroll lock adds one, through `get-nonce`.
const nonce = document.querySelector<HTMLMetaElement>('meta[property="csp-nonce"]')?.nonce;
if (nonce) setNonce(nonce);

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element.');
// Every signed-in page needs the user and its first data: ask now, while the router fetches the
// page's chunk (its lazy route starts loading when the router is created), not after it mounts.
const queryClient = createQueryClient();
prefetchFirstData(queryClient, window.location.pathname);
const router = createBrowserRouter(consoleRoutes);
// Only the language shown is downloaded, in parallel with the page's chunk and the user's data.
const locale = initialLocale();
void loadCatalogue(locale).then((catalogue) =>
  createRoot(root).render(
    <StrictMode>
      <I18nProvider initial={{ locale, catalogue }}>
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </I18nProvider>
    </StrictMode>,
  ),
);
