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
        <table className="table">
          <caption className="visually-hidden">Tool calls with their attempts</caption>
          <thead>
            <tr>
              <th scope="col">Tool</th>
              <th scope="col">Role, loop</th>
              <th scope="col">Arguments</th>
              <th scope="col">Attempts</th>
              <th scope="col">Outcome</th>
              <th scope="col">Result</th>
            </tr>
          </thead>
          <tbody>
            {operations.map((operation) => (
              <tr key={operation.operationId} className={operation.status === 'unknown' ? 'row-warn' : undefined}>
                <td>
                  <code>{operation.toolName}</code>
                </td>
                <td>
                  {roleOf(tasks, operation.taskId)}, loop {operation.loop}
                </td>
                <td>
                  <code>{short(operation.arguments)}</code>
                </td>
                <td>{operation.attempts}</td>
                <td>{operationWords[operation.status] ?? operation.status}</td>
                <td>{operation.failure?.message ?? short(operation.content ?? '')}</td>
              </tr>
            ))}
          </tbody>
        </table>
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
        <table className="table">
          <caption className="visually-hidden">Compressions</caption>
          <thead>
            <tr>
              <th scope="col">Role</th>
              <th scope="col">Messages summarised</th>
              <th scope="col">Usage (not counted as loops)</th>
            </tr>
          </thead>
          <tbody>
            {compressions.map((compression) => (
              <tr key={`${compression.taskId}-${compression.coveredUpTo}`}>
                <td>{roleOf(tasks, compression.taskId)}</td>
                <td>{compression.coveredUpTo}</td>
                <td>
                  {compression.usage.inputTokens ?? 0} in, {compression.usage.outputTokens ?? 0} out
                </td>
              </tr>
            ))}
          </tbody>
        </table>
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
      <table className="table">
        <caption className="visually-hidden">Raw and effective values</caption>
        <thead>
          <tr>
            <th scope="col">Subject</th>
            <th scope="col">Raw</th>
            <th scope="col">Effective</th>
          </tr>
        </thead>
        <tbody>
          {changes.map((change) => (
            <tr key={`${change.subject}-${change.source ?? ''}-${JSON.stringify(change.raw)}`}>
              <td>
                {change.subject}
                {change.source ? ` (${change.source})` : ''}
              </td>
              <td>
                <code>{short(change.raw)}</code>
              </td>
              <td>
                <code>{short(change.effective)}</code>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
