import type { EvaluationReport, Score } from './evaluate.js';

/** A threshold the CLI checks, and whether the report meets it. */
export interface ThresholdCheck {
  name: string;
  minimum: number;
  actual: number | undefined;
  met: boolean;
}

const ratio = (value: number | undefined) => (value === undefined ? '    —' : value.toFixed(3));
const pad = (text: string | number, width: number) => String(text).padStart(width);
const padEnd = (text: string, width: number) => text.padEnd(width);

function scoreTable(title: string, rows: Array<[string, Score]>): string[] {
  const width = Math.max(12, ...rows.map(([name]) => name.length));
  const lines = [title, `  ${padEnd('', width)}  expected  predicted    TP  precision  recall     F1`];
  for (const [name, score] of rows) {
    const expected = score.truePositives + score.falseNegatives;
    const predicted = score.truePositives + score.falsePositives;
    lines.push(
      `  ${padEnd(name, width)}  ${pad(expected, 8)}  ${pad(predicted, 9)}  ${pad(score.truePositives, 4)}  ${pad(ratio(score.precision), 9)}  ${pad(ratio(score.recall), 6)}  ${pad(ratio(score.f1), 5)}`,
    );
  }
  return lines;
}

/** Which turns the text report lists: all of them, only the wrong ones, or none. */
export type TurnListing = 'all' | 'errors' | 'none';

/**
 * The evaluation as text: headline figures, precision / recall / F1 per command type and per
 * action, the confusion table of turn labels, the turns each layer decided and how many of them
 * were right, then every turn (✓ or ✗, the deciding layer, and for a wrong turn what was missing
 * and what was not expected), then the thresholds.
 */
export function formatReport(
  report: EvaluationReport,
  options: { title: string; turns?: TurnListing; thresholds?: readonly ThresholdCheck[] },
): string {
  const lines: string[] = [options.title, ''];
  const { micro } = report;
  lines.push(
    `Commands (micro)  precision ${ratio(micro.precision)}  recall ${ratio(micro.recall)}  F1 ${ratio(micro.f1)}   macro F1 ${ratio(report.macroF1)}   turn accuracy ${ratio(report.turnAccuracy)} (${report.turns.filter((turn) => turn.correct).length}/${report.turns.length})`,
    '',
  );
  lines.push(...scoreTable('Per command type', Object.entries(report.byType) as Array<[string, Score]>), '');
  lines.push(...scoreTable('Per action (start commands)', Object.entries(report.byAction)), '');

  const { labels, matrix } = report.confusion;
  lines.push('Confusion of turn labels (rows: expected, columns: predicted; label = the action started, else the first of');
  lines.push('cancel, handOff, clarify, chitChat, cannotHandle; `slots` = slot commands only; `none` = no command)');
  const width = Math.max(...labels.map((label) => label.length)) + 5;
  lines.push(`  ${padEnd('', width)}${labels.map((_, index) => pad(index + 1, 4)).join('')}`);
  labels.forEach((label, row) => {
    const cells = (matrix[row] as number[]).map((count) => pad(count === 0 ? '.' : count, 4));
    lines.push(`  ${padEnd(`${pad(row + 1, 2)} ${label}`, width)}${cells.join('')}`);
  });
  lines.push('');

  lines.push('Turns decided per layer');
  for (const [layer, entry] of Object.entries(report.byLayer)) {
    const share = entry.turns === 0 ? 0 : (100 * entry.correct) / entry.turns;
    lines.push(`  ${padEnd(layer, 11)} ${pad(entry.turns, 4)} turns, ${pad(entry.correct, 4)} right (${share.toFixed(1)} %)`);
  }
  lines.push('');

  const listing = options.turns ?? 'all';
  if (listing !== 'none') {
    lines.push(listing === 'all' ? 'Turns (✓ right, ✗ wrong; the layer that decided)' : 'Wrong turns (the layer that decided)');
    for (const turn of report.turns) {
      if (listing === 'errors' && turn.correct) continue;
      lines.push(
        `  ${turn.correct ? '✓' : '✗'} ${padEnd(`${turn.dialogue}#${turn.turn}`, 44)} ${padEnd(turn.decidedBy, 10)} ${turn.user}`,
      );
      if (!turn.correct) {
        if (turn.missing.length > 0) lines.push(`      missing:    ${turn.missing.join('; ')}`);
        if (turn.unexpected.length > 0) lines.push(`      unexpected: ${turn.unexpected.join('; ')}`);
      }
    }
    lines.push('');
  }

  if (options.thresholds && options.thresholds.length > 0) {
    lines.push('Thresholds');
    for (const check of options.thresholds) {
      lines.push(`  ${check.met ? 'met   ' : 'FAILED'} ${padEnd(check.name, 22)} ${ratio(check.actual)} ≥ ${check.minimum}`);
    }
  }
  return `${lines.join('\n')}\n`;
}
