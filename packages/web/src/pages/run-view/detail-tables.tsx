import { DataTable } from '../../components/index.js';
import type { ApprovalView, CompressionView, HookChangeView, OperationView, SupplementView, TaskView } from '../../runs/index.js';

const operationWords: Record<OperationView['status'], string> = {
  pending: 'pending',
  'waiting-approval': 'waiting for approval',
  running: 'running',
  retrying: 'retrying',
  unknown: 'unknown — an attempt started and no outcome was saved; the next owner records it',
  succeeded: 'succeeded',
  failed: 'failed',
};

const roleOf = (tasks: TaskView[], taskId: string) => tasks.find((task) => task.taskId === taskId)?.role ?? taskId;
const short = (value: unknown) => {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text && text.length > 160 ? `${text.slice(0, 160)}…` : (text ?? '');
};

/** Every tool call (and delegation) with its attempts and outcome; an `unknown` outcome is said in words. */
export function OperationsTable({ operations, tasks }: { operations: OperationView[]; tasks: TaskView[] }) {
  return (
    <section className="card" aria-labelledby="run-operations">
      <h2 id="run-operations">Operations</h2>
      {operations.length === 0 ? (
        <p>No tool call in this run.</p>
      ) : (
        <DataTable
          caption="Tool calls with their attempts"
          columns={[
            { header: 'Tool', cell: (operation) => <code>{operation.toolName}</code> },
            { header: 'Role, loop', cell: (operation) => `${roleOf(tasks, operation.taskId)}, loop ${operation.loop}` },
            { header: 'Arguments', cell: (operation) => <code>{short(operation.arguments)}</code> },
            { header: 'Attempts', cell: (operation) => operation.attempts },
            { header: 'Outcome', cell: (operation) => operationWords[operation.status] ?? operation.status },
            { header: 'Result', cell: (operation) => operation.failure?.message ?? short(operation.content ?? '') },
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
  return (
    <section className="card" aria-labelledby="run-decisions">
      <h2 id="run-decisions">Approvals and permission decisions</h2>
      {approvals.length === 0 && gated.length === 0 ? <p>No permission rule or approval applied in this run.</p> : null}
      {approvals.length > 0 ? (
        <ul className="item-list">
          {approvals.map((approval) => (
            <li key={approval.approvalId}>
              <code>{approval.toolName}</code>: {approval.reason} —{' '}
              {approval.decision
                ? `${approval.decision.approved ? 'approved' : 'denied'} by ${approval.decision.decidedBy}`
                : 'waiting for a decision'}
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
              {operation.gate?.source ? `, by ${operation.gate.source}` : ''}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

/** Supplements the run received, consumed or carried over (S-1…S-4). */
export function SupplementsList({ supplements }: { supplements: SupplementView[] }) {
  if (supplements.length === 0) return null;
  return (
    <section className="card" aria-labelledby="run-supplements">
      <h2 id="run-supplements">Supplements</h2>
      <ul className="item-list">
        {supplements.map((supplement) => (
          <li key={supplement.supplementId}>
            “{supplement.text}” — {supplement.status}
            {supplement.carriedFrom ? ` (from run ${supplement.carriedFrom})` : ''}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Compressions with their own model usage, apart from the business loops (P-10.4). */
export function CompressionsTable({ compressions, tasks }: { compressions: CompressionView[]; tasks: TaskView[] }) {
  return (
    <section className="card" aria-labelledby="run-compressions">
      <h2 id="run-compressions">Compressions</h2>
      {compressions.length === 0 ? (
        <p>No compression in this run.</p>
      ) : (
        <DataTable
          caption="Compressions"
          columns={[
            { header: 'Role', cell: (compression) => roleOf(tasks, compression.taskId) },
            { header: 'Messages summarised', cell: (compression) => compression.coveredUpTo },
            {
              header: 'Usage (not counted as loops)',
              cell: (compression) => `${compression.usage.inputTokens ?? 0} in, ${compression.usage.outputTokens ?? 0} out`,
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
  if (changes.length === 0) return null;
  return (
    <section className="card" aria-labelledby="run-hooks">
      <h2 id="run-hooks">Hook changes</h2>
      <DataTable
        caption="Raw and effective values"
        columns={[
          { header: 'Subject', cell: (change) => `${change.subject}${change.source ? ` (${change.source})` : ''}` },
          { header: 'Raw', cell: (change) => <code>{short(change.raw)}</code> },
          { header: 'Effective', cell: (change) => <code>{short(change.effective)}</code> },
        ]}
        rows={changes}
        rowKey={(change) => `${change.subject}-${change.source ?? ''}-${JSON.stringify(change.raw)}`}
      />
    </section>
  );
}
