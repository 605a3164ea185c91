import { z } from 'zod';

/** The verdict on a final answer: accepted (with the text to deliver) or feedback for the role. */
export type AnswerVerdict = { ok: true; output: string } | { ok: false; feedback: string };

/**
 * Checks a final answer against a role's output schema (O-1, C-13). Without a schema every answer
 * is accepted. With one, the answer must be JSON (a surrounding Markdown code fence is tolerated)
 * that the schema accepts; otherwise the feedback names every problem and the schema, and goes
 * back to the same role as its next loop's input, under the shared budget (O-2).
 */
export function validateAnswer(schema: z.ZodType | undefined, answer: string): AnswerVerdict {
  if (!schema) return { ok: true, output: answer };
  const text = unfence(answer.trim());
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, feedback: feedback(schema, ['the answer is not valid JSON']) };
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    return {
      ok: false,
      feedback: feedback(
        schema,
        parsed.error.issues.map((issue) => `${issue.path.join('.') || '(answer)'}: ${issue.message}`),
      ),
    };
  }
  return { ok: true, output: JSON.stringify(parsed.data) };
}

function unfence(text: string): string {
  const match = /^```(?:json)?\s*\n([\s\S]*?)\n?```$/.exec(text);
  return match ? (match[1] as string) : text;
}

function feedback(schema: z.ZodType, problems: string[]): string {
  const jsonSchema = JSON.stringify(z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'output' }));
  return [
    'Your final answer does not match the required output format.',
    ...problems.map((problem) => `- ${problem}`),
    `Required JSON Schema: ${jsonSchema}`,
    'Answer again with only the corrected JSON.',
  ].join('\n');
}
