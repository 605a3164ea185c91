import { type ComponentProps, lazy, Suspense, useState } from 'react';
import { useT } from '../../i18n/index.js';

const load = () => import('../agent-editor/publish-dialog.js');
const PublishDialog = lazy(() => load().then((module) => ({ default: module.PublishDialog })));

/**
 * The Publish button of the editors (agent, workflow, router): the publish dialog (and its dialog library) loads on
 * the first press — or when the pointer or focus reaches the button — and opens at once, so the
 * editor's JavaScript at page load stays within the page budget (scripts/report-bundle-size.ts).
 */
export function LazyPublishDialog(props: Omit<ComponentProps<typeof PublishDialog>, 'initiallyOpen'>) {
  const t = useT();
  const [wanted, setWanted] = useState(false);
  const button = (onClick?: () => void) => (
    <button
      type="button"
      className="button-primary"
      disabled={props.disabled || !onClick}
      onClick={onClick}
      onPointerEnter={() => void load()}
      onFocus={() => void load()}
    >
      {t('publish.open')}
    </button>
  );
  if (!wanted) return button(() => setWanted(true));
  return (
    <Suspense fallback={button()}>
      <PublishDialog {...props} initiallyOpen />
    </Suspense>
  );
}
