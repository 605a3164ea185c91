import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  type ConfigurationProblemError,
  defaultSignInLimits,
  loadConfig,
  mostAccountFailuresPerWindow,
} from '../src/config/index.js';

const directory = mkdtempSync(path.join(tmpdir(), 'agentloom-security-config-'));
const base = { AGENTLOOM_SECRET_KEY: 'a-secret-key-long-enough-for-the-platform-0123' };
const problemsOf = (environment: NodeJS.ProcessEnv): readonly string[] => {
  try {
    loadConfig({ ...base, ...environment }, {}, directory);
    return [];
  } catch (error) {
    return (error as ConfigurationProblemError).problems;
  }
};

/** The security settings of P-15.3/P-15.4 as `agentloom serve` reads them, with one clear sentence per problem. */
describe('security settings', () => {
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it('defaults to no trusted proxy, auto Secure cookies, metrics off and the documented sign-in limits', () => {
    const config = loadConfig(base, {}, directory);
    expect(config.trustedProxies).toEqual([]);
    expect(config.cookieSecure).toBe('auto');
    expect(config.metricsToken).toBeUndefined();
    expect(config.signInLimits).toEqual(defaultSignInLimits);
    // The default address limit is far above what one account's back-off lets through in a window.
    expect(mostAccountFailuresPerWindow(defaultSignInLimits)).toBe(14);
  });

  it('reads the settings', () => {
    const config = loadConfig(
      {
        ...base,
        AGENTLOOM_TRUSTED_PROXIES: '10.0.0.0/8, ::1 ,loopback',
        AGENTLOOM_COOKIE_SECURE: 'true',
        AGENTLOOM_METRICS_TOKEN: 'a-long-metrics-token-0123',
        AGENTLOOM_SIGNIN_ACCOUNT_FAILURES: '3',
        AGENTLOOM_SIGNIN_ADDRESS_FAILURES: '50',
      },
      {},
      directory,
    );
    expect(config.trustedProxies).toEqual(['10.0.0.0/8', '::1', 'loopback']);
    expect(config.cookieSecure).toBe(true);
    expect(config.metricsToken).toBe('a-long-metrics-token-0123');
    expect(config.signInLimits).toMatchObject({ accountFailures: 3, addressFailures: 50 });
  });

  it('refuses what it cannot use, naming each setting', () => {
    expect(
      problemsOf({
        AGENTLOOM_TRUSTED_PROXIES: '10.0.0.0/8,not-an-address',
        AGENTLOOM_COOKIE_SECURE: 'yes',
        AGENTLOOM_METRICS_TOKEN: 'short',
        AGENTLOOM_SIGNIN_BACKOFF_MS: 'soon',
      }),
    ).toEqual([
      'AGENTLOOM_SIGNIN_BACKOFF_MS "soon" must be an integer of at least 1.',
      expect.stringMatching(/^AGENTLOOM_TRUSTED_PROXIES entry "not-an-address" is not an IP address, a CIDR range/),
      'AGENTLOOM_COOKIE_SECURE "yes" must be true, false or auto.',
      'AGENTLOOM_METRICS_TOKEN must be at least 16 characters without spaces (e.g. `openssl rand -hex 24`).',
    ]);
    // One account's back-off must never be able to reach the address limit on its own.
    expect(problemsOf({ AGENTLOOM_SIGNIN_ADDRESS_FAILURES: '14' })).toEqual([
      expect.stringMatching(/^AGENTLOOM_SIGNIN_ADDRESS_FAILURES \(14\) must be higher than 14: /),
    ]);
    expect(problemsOf({ AGENTLOOM_SIGNIN_ADDRESS_FAILURES: '15' })).toEqual([]);
  });
});
