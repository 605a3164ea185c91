import type { Context } from 'hono';
import type { AppRow } from '../../adapters/database/schema.js';
import {
  type A2aPushConfigRequest,
  createA2aPushConfig,
  deleteA2aPushConfig,
  listA2aPushConfigs,
  readA2aPushConfig,
} from '../../application/a2a/a2a-push.js';
import { cancelA2aTask, listA2aTasks, streamA2aTask, waitUntilSettled } from '../../application/a2a/a2a-streams.js';
import { type A2aCaller, projectRun, readA2aTask, runOfTask, sendA2aMessage } from '../../application/a2a/a2a-tasks.js';
import { A2AProtocolError, a2aErrorCodes, invalidParams, unsupportedOperation } from '../../domain/a2a-errors.js';
import { type A2AMessage, isTerminalState } from '../../domain/a2a-task.js';
import type { PlatformEnvironment } from '../services.js';
import { type JsonRpcRequest, resultResponse, streamResponse } from './a2a-json-rpc.js';

function stringParam(params: Record<string, unknown>, name: string): string {
  const value = params[name];
  if (typeof value !== 'string' || value === '') throw invalidParams(`params.${name} is required (a string).`);
  return value;
}

function optionalInteger(value: unknown, name: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  const number = typeof value === 'string' ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isInteger(number) || number < 0)
    throw invalidParams(`${name} is a whole number ≥ 0.`);
  return number;
}

/**
 * The resume cursor of a stream (the resume extension): `params.metadata.afterSeq`, else the
 * SSE `Last-Event-ID` header; undefined without either (the spec's snapshot-then-live behaviour).
 */
function cursorOf(c: Context<PlatformEnvironment>, params: Record<string, unknown>): number | undefined {
  const metadata = params.metadata as Record<string, unknown> | undefined;
  const fromMetadata = optionalInteger(metadata?.afterSeq, 'params.metadata.afterSeq');
  if (fromMetadata !== undefined) return fromMetadata;
  const header = c.req.header('last-event-id');
  return header ? optionalInteger(header, 'Last-Event-ID') : undefined;
}

/**
 * Runs one A2A 1.0 JSON-RPC method for an app published over A2A, over the run use cases:
 * `SendMessage` (blocking by default, `configuration.returnImmediately` answers at once),
 * `SendStreamingMessage`, `GetTask`, `ListTasks`, `CancelTask`, `SubscribeToTask`, and the four
 * push-config methods (also `configuration.taskPushNotificationConfig` on a send);
 * `GetExtendedAgentCard` is `UnsupportedOperationError` (no extended card), anything else `MethodNotFound`.
 */
export async function dispatchA2aMethod(
  c: Context<PlatformEnvironment>,
  app: AppRow,
  caller: A2aCaller,
  request: JsonRpcRequest,
): Promise<Response> {
  const services = c.get('services');
  const { params, id } = request;
  switch (request.method) {
    case 'SendMessage':
    case 'SendStreamingMessage': {
      const message = params.message as A2AMessage;
      const configuration = (params.configuration ?? {}) as {
        returnImmediately?: boolean;
        historyLength?: unknown;
        taskPushNotificationConfig?: A2aPushConfigRequest;
      };
      const historyLength = optionalInteger(configuration.historyLength, 'configuration.historyLength');
      const taskId = await sendA2aMessage(services, app, caller, message);
      const run = await runOfTask(services, app, caller, taskId);
      if (configuration.taskPushNotificationConfig)
        await createA2aPushConfig(services, app, caller, configuration.taskPushNotificationConfig, run.id);
      if (request.method === 'SendStreamingMessage')
        return streamResponse(c, id, (signal) => streamA2aTask(services, run, { signal, historyLength }));
      if (configuration.returnImmediately !== true) await waitUntilSettled(services, run.id, c.req.raw.signal);
      return resultResponse(c, id, { task: await readA2aTask(services, run, historyLength) });
    }
    case 'GetTask': {
      const run = await runOfTask(services, app, caller, stringParam(params, 'id'));
      return resultResponse(c, id, await readA2aTask(services, run, optionalInteger(params.historyLength, 'historyLength')));
    }
    case 'ListTasks': {
      const result = await listA2aTasks(services, app, caller, {
        ...(typeof params.contextId === 'string' && params.contextId !== '' ? { contextId: params.contextId } : {}),
        // The official client sends `UNRECOGNIZED` when no status is asked for: only a real state filters.
        ...(typeof params.status === 'string' && /^TASK_STATE_(?!UNSPECIFIED)/.test(params.status)
          ? { status: params.status }
          : {}),
        ...(params.pageSize !== undefined && params.pageSize !== 0
          ? { pageSize: optionalInteger(params.pageSize, 'pageSize') }
          : {}),
        ...(typeof params.pageToken === 'string' && params.pageToken !== '' ? { pageToken: params.pageToken } : {}),
        ...(params.historyLength !== undefined ? { historyLength: optionalInteger(params.historyLength, 'historyLength') } : {}),
        includeArtifacts: params.includeArtifacts === true,
      });
      return resultResponse(c, id, result);
    }
    case 'CancelTask':
      return resultResponse(c, id, await cancelA2aTask(services, app, caller, stringParam(params, 'id')));
    case 'SubscribeToTask': {
      const run = await runOfTask(services, app, caller, stringParam(params, 'id'));
      const afterSequence = cursorOf(c, params);
      // Without a cursor there is nothing left to follow on a finished task (A2A §3.1.6); with
      // one, the client asks for the events it missed, which a finished task still has.
      if (afterSequence === undefined && isTerminalState((await projectRun(services, run.id)).state))
        throw unsupportedOperation(`Task ${run.id} has ended; read it with GetTask.`, { taskId: run.id });
      return streamResponse(c, id, (signal) => streamA2aTask(services, run, { signal, afterSequence }));
    }
    case 'CreateTaskPushNotificationConfig':
      return resultResponse(c, id, await createA2aPushConfig(services, app, caller, params as A2aPushConfigRequest));
    case 'GetTaskPushNotificationConfig':
      return resultResponse(
        c,
        id,
        await readA2aPushConfig(services, app, caller, stringParam(params, 'taskId'), stringParam(params, 'id')),
      );
    case 'ListTaskPushNotificationConfigs':
      return resultResponse(c, id, await listA2aPushConfigs(services, app, caller, stringParam(params, 'taskId')));
    case 'DeleteTaskPushNotificationConfig':
      await deleteA2aPushConfig(services, app, caller, stringParam(params, 'taskId'), stringParam(params, 'id'));
      return resultResponse(c, id, {});
    case 'GetExtendedAgentCard':
      throw unsupportedOperation('This agent has no extended card.');
    default:
      throw new A2AProtocolError(a2aErrorCodes.methodNotFound, `No method ${request.method}.`);
  }
}
