import { describe, expect, it } from 'vitest';
import { checkReceivedResponses, checkResponse, contractOf, recordResponse } from './response-contract.js';

/**
 * The response contract fails on a drift: answers that break the served document (a wrong type,
 * a missing field, an undocumented status or media type) are reported, a conforming one is not.
 * Every suite that uses `TestClient` runs this check on each of its responses.
 */
describe('the response contract of the HTTP suites', () => {
  const json = 'application/json; charset=UTF-8';
  const space = { id: 'spc_1', name: 'Team', state: 'active', createdAt: '2026-01-01T00:00:00.000Z', role: 'owner' };

  it('accepts an answer that matches its operation, status and schema', async () => {
    const api = await contractOf();
    const verdict = checkResponse(api, { method: 'GET', path: '/spaces/spc_1', status: 200, contentType: json, body: { space } });
    expect(verdict).toEqual({ checked: true, operationId: 'getSpace', problems: [] });
    // The known violation of the issue is gone: a deletion that was never asked for is null.
    expect(
      checkResponse(api, {
        method: 'GET',
        path: '/apps/app_1/deletion',
        status: 200,
        contentType: json,
        body: { deletion: null },
      }),
    ).toEqual({ checked: true, operationId: 'getAppDeletion', problems: [] });
  });

  it('fails on a deliberate drift: a wrong type, a missing field, an undocumented status or media type', async () => {
    const api = await contractOf();
    const wrongType = checkResponse(api, {
      method: 'GET',
      path: '/spaces/spc_1',
      status: 200,
      contentType: json,
      body: { space: { ...space, createdAt: 17 } },
    });
    expect(wrongType.checked && wrongType.problems.join()).toContain('/space/createdAt');
    const { name: _name, ...withoutName } = space;
    const missing = checkResponse(api, {
      method: 'GET',
      path: '/spaces/spc_1',
      status: 200,
      contentType: json,
      body: { space: withoutName },
    });
    expect(missing.checked && missing.problems.join()).toContain('name');
    const badError = checkResponse(api, {
      method: 'GET',
      path: '/spaces/spc_1',
      status: 404,
      contentType: json,
      body: { error: 'nope' },
    });
    expect(badError.checked && badError.problems.length).toBeGreaterThan(0);
    expect(checkResponse(api, { method: 'GET', path: '/spaces/spc_1', status: 418, contentType: json, body: {} })).toEqual({
      checked: true,
      operationId: 'getSpace',
      problems: ['status 418 is not documented'],
    });
    expect(
      checkResponse(api, { method: 'GET', path: '/spaces/spc_1', status: 200, contentType: 'text/html', body: '<p>' }),
    ).toEqual({
      checked: true,
      operationId: 'getSpace',
      problems: ['media type text/html is not documented for 200'],
    });
  });

  it('fails the test that received a drifting response (the check the harness runs after each test)', async () => {
    recordResponse({
      method: 'GET',
      path: '/spaces/spc_1',
      status: 200,
      contentType: json,
      body: { space: { ...space, createdAt: 17 } },
    });
    await expect(checkReceivedResponses()).rejects.toThrow('getSpace, 200): /space/createdAt');
  });

  it('leaves what the document does not describe to other suites: unknown routes, event streams', async () => {
    const api = await contractOf();
    expect(checkResponse(api, { method: 'GET', path: '/nowhere', status: 404, contentType: json, body: {} }).checked).toBe(false);
    expect(
      checkResponse(api, { method: 'GET', path: '/runs/run_1/events', status: 200, contentType: 'text/event-stream', body: '' })
        .checked,
    ).toBe(false);
  });
});
