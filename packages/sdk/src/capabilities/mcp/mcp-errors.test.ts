import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, describe, expect, it } from 'vitest';
import { failureFromToolError, isRetryableFailure } from '../../core/failure.js';
import { approvalRequestId, createDenyingMcpApprovalPort } from './approval-port.js';
import { McpConnectionError, McpRequestError, McpToolError, mapMcpError } from './mcp-errors.js';
import { FileMcpTaskLedger } from './mcp-task-ledger.js';

const directory = mkdtempSync(join(tmpdir(), 'agentloom-mcp-unit-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));
const healthy = { connectionLost: false };

describe('MCP failure mapping (X-5: by type and code, never by message)', () => {
  it.each([
    [new McpError(-32000, 'Connection closed'), McpConnectionError, true],
    [new McpError(-32602, 'Invalid params'), McpRequestError, false],
    [new McpError(-32601, 'Method not found'), McpRequestError, false],
    [new McpError(-32603, 'Internal error'), McpRequestError, true],
    [new McpError(-32001, 'Request timed out'), McpRequestError, true],
    // The SDK's own error class (its `name` is plain "Error": recognised by class, not by name).
    [new StreamableHTTPError(503, 'Server error'), McpConnectionError, true],
    [new StreamableHTTPError(404, 'Session not found'), McpConnectionError, true],
    [new StreamableHTTPError(401, 'Unauthorized'), McpRequestError, false],
    [Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } }), McpConnectionError, true],
  ])('maps %s', (error, type, retryable) => {
    const mapped = mapMcpError('server', error, healthy) as { retryable: boolean };
    expect(mapped).toBeInstanceOf(type);
    expect(mapped.retryable).toBe(retryable);
    expect(isRetryableFailure(failureFromToolError(mapped))).toBe(retryable);
  });

  it('keeps aborts and unknown errors, and treats anything after a lost connection as a connection failure', () => {
    const controller = new AbortController();
    const reason = new Error('attempt timeout');
    controller.abort(reason);
    expect(mapMcpError('server', new Error('x'), { signal: controller.signal, connectionLost: false })).toBe(reason);
    const plain = new Error('something else');
    expect(mapMcpError('server', plain, healthy)).toBe(plain);
    expect(mapMcpError('server', plain, { connectionLost: true })).toBeInstanceOf(McpConnectionError);
  });

  it("keeps a custom fetch's typed, final refusal (an egress policy) as it is, even on a lost connection", () => {
    const refusal = Object.assign(new Error('refused by policy'), { code: 'egress-denied', retryable: false });
    expect(mapMcpError('server', refusal, { connectionLost: true })).toBe(refusal);
    expect(failureFromToolError(refusal)).toMatchObject({ kind: 'tool-error', code: 'egress-denied', retryable: false });
    // Without a code it says nothing typed: still a connection failure.
    const untyped = Object.assign(new Error('refused'), { retryable: false });
    expect(mapMcpError('server', untyped, { connectionLost: true })).toBeInstanceOf(McpConnectionError);
  });

  it('makes a tool-reported error a final business failure', () => {
    const failure = failureFromToolError(new McpToolError('server', 'tool', 'file not found'));
    expect(failure).toMatchObject({ kind: 'tool-error', code: 'mcp-tool-failed', retryable: false, message: 'file not found' });
    expect(isRetryableFailure(failure)).toBe(false);
  });
});

describe('task ledger and approval port', () => {
  it('keeps one durable record per operation', async () => {
    const ledger = new FileMcpTaskLedger(join(directory, 'ledger'));
    expect(await ledger.get('operation-1')).toBeUndefined();
    const record = { operationId: 'operation-1', server: 's', tool: 't', taskId: 'task-1', history: [] };
    await ledger.put(record);
    await ledger.put({ ...record, history: [{ attempt: 1, action: 'created' as const, taskId: 'task-1', at: 1 }] });
    expect(await new FileMcpTaskLedger(join(directory, 'ledger')).get('operation-1')).toMatchObject({
      taskId: 'task-1',
      history: [{ action: 'created' }],
    });
  });

  it('denies by default, and gives a question the same id on every attempt', async () => {
    const decision = await createDenyingMcpApprovalPort().request({} as never, { signal: new AbortController().signal });
    expect(decision.decision).toBe('deny');
    const parts = {
      operationId: 'operation-1',
      server: 's',
      message: 'Your name?',
      requestedSchema: { type: 'object' },
      ordinal: 1,
    };
    expect(approvalRequestId(parts)).toBe(approvalRequestId({ ...parts }));
    expect(approvalRequestId(parts)).not.toBe(approvalRequestId({ ...parts, ordinal: 2 }));
    expect(approvalRequestId(parts)).not.toBe(approvalRequestId({ ...parts, operationId: 'operation-2' }));
  });
});
