import { type CommandType, commandTypes } from '../commands/command.js';
import type { EvaluationReport } from './evaluate.js';
import type { ThresholdCheck } from './format-report.js';

/** Minimums an evaluation must reach (each optional). */
export interface Thresholds {
  f1?: number;
  precision?: number;
  recall?: number;
  turnAccuracy?: number;
  /** Minimum F1 per command type. */
  typeF1?: Partial<Record<CommandType, number>>;
}

/** Checks a report against minimums; a figure the corpus cannot produce (no such command) fails. */
export function checkThresholds(report: EvaluationReport, thresholds: Thresholds): ThresholdCheck[] {
  const checks: ThresholdCheck[] = [];
  const check = (name: string, minimum: number | undefined, actual: number | undefined) => {
    if (minimum === undefined) return;
    checks.push({ name, minimum, actual, met: actual !== undefined && actual >= minimum });
  };
  check('F1 (micro)', thresholds.f1, report.micro.f1);
  check('precision (micro)', thresholds.precision, report.micro.precision);
  check('recall (micro)', thresholds.recall, report.micro.recall);
  check('turn accuracy', thresholds.turnAccuracy, report.turnAccuracy);
  for (const type of commandTypes) check(`F1 of ${type}`, thresholds.typeF1?.[type], report.byType[type]?.f1);
  return checks;
}
