import { DataTable } from '../../components/index.js';
import { isMessageId, type Translate, useT } from '../../i18n/index.js';
import { statusLabel, type TaskView } from '../../runs/index.js';

/** A task's phase in words (`phase.<phase>`); an unknown phase as the SDK names it. */
function phaseWords(t: Translate, phase: string): string {
  const id = `phase.${phase}`;
  return isMessageId(id) ? t(id) : phase;
}

/** Loops per role (each task's loops, summed by role) and the run's total. */
export function LoopsByRole({ tasks, total }: { tasks: TaskView[]; total: number }) {
  const byRole = new Map<string, number>();
  for (const task of tasks) byRole.set(task.role, (byRole.get(task.role) ?? 0) + task.loop);
  const t = useT();
  return (
    <DataTable
      caption={t('tasks.loopsPerRole')}
      showCaption
      columns={[
        { key: 'role', header: t('tasks.role'), cell: ([role]) => role },
        { key: 'loops', header: t('tasks.loops'), cell: ([, loops]) => loops },
      ]}
      rows={[...byRole]}
      rowKey={([role]) => role}
      footer={
        <tr>
          <th scope="row">{t('tasks.total')}</th>
          <td>{total}</td>
        </tr>
      }
    />
  );
}

function TaskNode({ task, tasks }: { task: TaskView; tasks: TaskView[] }) {
  const children = tasks.filter((candidate) => candidate.parentTaskId === task.taskId);
  const t = useT();
  return (
    <li>
      <strong>{task.role}</strong> <code>{task.taskId}</code> — {t('tasks.loopCount', { count: task.loop })},{' '}
      {phaseWords(t, task.phase)}
      {task.outcome ? (
        <>
          , {statusLabel(t, task.outcome.status)}
          {task.outcome.failure?.message ? `: ${task.outcome.failure.message}` : ''}
        </>
      ) : null}
      {children.length > 0 ? (
        <ul>
          {children.map((child) => (
            <TaskNode key={child.taskId} task={child} tasks={tasks} />
          ))}
        </ul>
      ) : null}
    </li>
  );
}

/** The task tree: the entry task (the planner in Plan–Executor) with its executor tasks under it. */
export function TaskTree({ tasks }: { tasks: TaskView[] }) {
  const roots = tasks.filter((task) => !task.parentTaskId || !tasks.some((parent) => parent.taskId === task.parentTaskId));
  const t = useT();
  return (
    <>
      <h3>{t('tasks.tree')}</h3>
      <ul className="task-tree">
        {roots.map((task) => (
          <TaskNode key={task.taskId} task={task} tasks={tasks} />
        ))}
      </ul>
    </>
  );
}
