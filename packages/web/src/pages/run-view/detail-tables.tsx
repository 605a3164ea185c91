import { DataTable } from '../../components/index.js';
import { isMessageId, type Translate, useT } from '../../i18n/index.js';
import {
  type ApprovalView,
  type CompressionView,
  type HookChangeView,
  type OperationView,
  type SupplementView,
  statusLabel,
  type TaskView,
} from '../../runs/index.js';

/** An operation's outcome in words (`operation.<status>`); `unknown` says what it means (X-7). */
function operationWords(t: Translate, status: string): string {
  const id = `operation.${status}`;
  return isMessageId(id) ? t(id) : status;
}

const roleOf = (tasks: TaskView[], taskId: string) => tasks.find((task) => task.taskId === taskId)?.role ?? taskId;
const short = (value: unknown) => {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text && text.length > 160 ? `${text.slice(0, 160)}…` : (text ?? '');
};

/** Every tool call (and delegation) with its attempts and outcome; an `unknown` outcome is said in words. */
export function OperationsTable({ operations, tasks }: { operations: OperationView[]; tasks: TaskView[] }) {
  const t = useT();
  return (
    <section className="card" aria-labelledby="run-operations">
      <h2 id="run-operations">{t('details.operations')}</h2>
      {operations.length === 0 ? (
        <p>{t('details.noToolCall')}</p>
      ) : (
        <DataTable
          caption={t('details.operationsCaption')}
          columns={[
            { key: 'tool', header: t('details.tool'), cell: (operation) => <code>{operation.toolName}</code> },
            {
              key: 'role',
              header: t('details.roleLoop'),
              cell: (operation) => t('details.roleLoopValue', { role: roleOf(tasks, operation.taskId), loop: operation.loop }),
            },
            { key: 'arguments', header: t('details.arguments'), cell: (operation) => <code>{short(operation.arguments)}</code> },
            { key: 'attempts', header: t('details.attempts'), cell: (operation) => operation.attempts },
            { key: 'outcome', header: t('details.outcome'), cell: (operation) => operationWords(t, operation.status) },
            {
              key: 'result',
              header: t('details.result'),
              cell: (operation) => operation.failure?.message ?? short(operation.content ?? ''),
            },
          ]}
          rows={operations}
          rowKey={(operation) => operation.operationId}
          rowClassName={(operation) => (operation.status === 'unknown' ? 'row-warn' : undefined)}
        />
      )}
    </section>
  );
}

/** Approvals with their decisions, and the permission decision of every gated call. */
export function ApprovalsAndDecisions({ approvals, operations }: { approvals: ApprovalView[]; operations: OperationView[] }) {
  const gated = operations.filter((operation) => operation.gate);
  const t = useT();
  return (
    <section className="card" aria-labelledby="run-decisions">
      <h2 id="run-decisions">{t('details.decisions')}</h2>
      {approvals.length === 0 && gated.length === 0 ? <p>{t('details.noDecision')}</p> : null}
      {approvals.length > 0 ? (
        <ul className="item-list">
          {approvals.map((approval) => (
            <li key={approval.approvalId}>
              <code>{approval.toolName}</code>: {approval.reason} —{' '}
              {approval.decision
                ? t('details.decidedBy', { approved: approval.decision.approved, who: approval.decision.decidedBy })
                : t('details.waiting')}
            </li>
          ))}
        </ul>
      ) : null}
      {gated.length > 0 ? (
        <ul className="item-list">
          {gated.map((operation) => (
            <li key={operation.operationId}>
              <code>{operation.toolName}</code>: {operation.gate?.decision}
              {operation.gate?.reason ? ` (${operation.gate.reason})` : ''}
              {operation.gate?.source ? t('details.gateBy', { source: operation.gate.source }) : ''}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

/** Supplements the run received, consumed or carried over (S-1…S-4). */
export function SupplementsList({ supplements }: { supplements: SupplementView[] }) {
  const t = useT();
  if (supplements.length === 0) return null;
  return (
    <section className="card" aria-labelledby="run-supplements">
      <h2 id="run-supplements">{t('details.supplements')}</h2>
      <ul className="item-list">
        {supplements.map((supplement) => (
          <li key={supplement.supplementId}>
            “{supplement.text}” — {statusLabel(t, supplement.status)}
            {supplement.carriedFrom ? t('details.fromRun', { runId: supplement.carriedFrom }) : ''}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Compressions with their own model usage, apart from the business loops (P-10.4). */
export function CompressionsTable({ compressions, tasks }: { compressions: CompressionView[]; tasks: TaskView[] }) {
  const t = useT();
  return (
    <section className="card" aria-labelledby="run-compressions">
      <h2 id="run-compressions">{t('details.compressions')}</h2>
      {compressions.length === 0 ? (
        <p>{t('details.noCompression')}</p>
      ) : (
        <DataTable
          caption={t('details.compressions')}
          columns={[
            { key: 'role', header: t('tasks.role'), cell: (compression) => roleOf(tasks, compression.taskId) },
            { key: 'covered', header: t('details.summarised'), cell: (compression) => compression.coveredUpTo },
            {
              key: 'usage',
              header: t('details.compressionUsage'),
              cell: (compression) =>
                t('runView.tokens', { input: compression.usage.inputTokens ?? 0, output: compression.usage.outputTokens ?? 0 }),
            },
          ]}
          rows={compressions}
          rowKey={(compression) => `${compression.taskId}-${compression.coveredUpTo}`}
        />
      )}
    </section>
  );
}

/** Values hooks changed: what was proposed (raw) and what took effect (K-9). */
export function HookChangesTable({ changes }: { changes: HookChangeView[] }) {
  const t = useT();
  if (changes.length === 0) return null;
  return (
    <section className="card" aria-labelledby="run-hooks">
      <h2 id="run-hooks">{t('details.hookChanges')}</h2>
      <DataTable
        caption={t('details.hookCaption')}
        columns={[
          {
            key: 'subject',
            header: t('details.subject'),
            cell: (change) => `${change.subject}${change.source ? ` (${change.source})` : ''}`,
          },
          { key: 'raw', header: t('details.raw'), cell: (change) => <code>{short(change.raw)}</code> },
          { key: 'effective', header: t('details.effective'), cell: (change) => <code>{short(change.effective)}</code> },
        ]}
        rows={changes}
        rowKey={(change) => `${change.subject}-${change.source ?? ''}-${JSON.stringify(change.raw)}`}
      />
    </section>
  );
}
