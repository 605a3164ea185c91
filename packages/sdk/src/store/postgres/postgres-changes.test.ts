import { describe, expect, it } from 'vitest';
import { parseChange } from './postgres-changes.js';

describe('the payload of a run change notification (ADR 0025)', () => {
  it('reads `<sequence>:<run id>`, `:<run id>`, and a run id alone as older SDKs sent it', () => {
    expect(parseChange('12:run_1')).toEqual({ runId: 'run_1', through: 12 });
    expect(parseChange(':run_1')).toEqual({ runId: 'run_1' });
    expect(parseChange('7:a:b')).toEqual({ runId: 'a:b', through: 7 });
    expect(parseChange('run_1')).toEqual({ runId: 'run_1' });
    expect(parseChange('ses:run')).toEqual({ runId: 'ses:run' });
  });
});
