import { describe, expect, it } from 'vitest';
import { modelServerOf } from './model-server.js';

describe('modelServerOf: server.address and server.port of a provider endpoint', () => {
  it('takes the host and the port the URL names', () => {
    expect(modelServerOf('http://127.0.0.1:8080/v1')).toEqual({ address: '127.0.0.1', port: 8080 });
    expect(modelServerOf('https://gateway.example.com:8443')).toEqual({ address: 'gateway.example.com', port: 8443 });
  });

  it('gives the scheme’s default port when the URL names none, and drops IPv6 brackets', () => {
    expect(modelServerOf('https://api.openai.com/v1')).toEqual({ address: 'api.openai.com', port: 443 });
    expect(modelServerOf('http://localhost/v1')).toEqual({ address: 'localhost', port: 80 });
    expect(modelServerOf('http://[::1]:11434/v1')).toEqual({ address: '::1', port: 11434 });
  });

  it('gives nothing for a URL that does not parse', () => {
    expect(modelServerOf('not a url')).toBeUndefined();
  });
});
