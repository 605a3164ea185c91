import { DataTable } from '../../components/index.js';
import type { TaskView } from '../../runs/index.js';

const phaseWords: Record<string, string> = {
  ready: 'ready',
  'calling-model': 'calling the model',
  'in-batch': 'running tool calls',
  answered: 'answered',
  finished: 'finished',
};

/** Loops per role (each task's loops, summed by role) and the run's total. */
export function LoopsByRole({ tasks, total }: { tasks: TaskView[]; total: number }) {
  const byRole = new Map<string, number>();
  for (const task of tasks) byRole.set(task.role, (byRole.get(task.role) ?? 0) + task.loop);
  return (
    <DataTable
      caption="Loops per role"
      showCaption
      columns={[
        { header: 'Role', cell: ([role]) => role },
        { header: 'Loops', cell: ([, loops]) => loops },
      ]}
      rows={[...byRole]}
      rowKey={([role]) => role}
      footer={
        <tr>
          <th scope="row">Total (charged to the run)</th>
          <td>{total}</td>
        </tr>
      }
    />
  );
}

function TaskNode({ task, tasks }: { task: TaskView; tasks: TaskView[] }) {
  const children = tasks.filter((candidate) => candidate.parentTaskId === task.taskId);
  return (
    <li>
      <strong>{task.role}</strong> <code>{task.taskId}</code> — {task.loop} loop{task.loop === 1 ? '' : 's'},{' '}
      {phaseWords[task.phase] ?? task.phase}
      {task.outcome ? (
        <>
          , {task.outcome.status}
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
  return (
    <>
      <h3>Task tree</h3>
      <ul className="task-tree">
        {roots.map((task) => (
          <TaskNode key={task.taskId} task={task} tasks={tasks} />
        ))}
      </ul>
    </>
  );
}
