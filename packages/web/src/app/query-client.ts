import { QueryClient } from '@tanstack/react-query';
import { ApiProblem } from '../api/index.js';

/**
 * Server state lives in TanStack Query. A 4xx is an answer, not a hiccup: it is never retried;
 * network failures and 5xx get one retry.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 10_000,
        retry: (failures, error) => !(error instanceof ApiProblem && error.status >= 400 && error.status < 500) && failures < 1,
      },
      mutations: { retry: false },
    },
  });
}
