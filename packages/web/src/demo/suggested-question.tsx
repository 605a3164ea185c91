import { useT } from '../i18n/index.js';

/** The question a demo app suggests: its description's "Try: …" tail (the seeded Demo space writes it so). */
export function suggestedQuestionOf(description: string | undefined): string | undefined {
  const match = /Try: (.+)$/.exec(description ?? '');
  return match?.[1]?.trim() || undefined;
}

/**
 * One click runs a demo app with the question it suggests (issue 35): shown when the app's
 * description names one, so any app may suggest a question the same way.
 */
export function SuggestedQuestion({
  description,
  ask,
  disabled,
}: {
  description: string | undefined;
  ask: (question: string) => void;
  disabled?: boolean;
}) {
  const t = useT();
  const question = suggestedQuestionOf(description);
  if (!question) return null;
  return (
    <p className="suggested-question">
      <button type="button" data-testid="suggested-question" disabled={disabled} onClick={() => ask(question)}>
        {t('demo.suggested.ask', { question })}
      </button>
    </p>
  );
}
