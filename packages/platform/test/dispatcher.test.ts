import { describeDispatcherContract } from './dispatcher-contract.js';
import { dialects } from './harness.js';

// The `Dispatcher` port's one contract, on every adapter and engine it runs on.
describeDispatcherContract({ dialect: 'sqlite', dispatcher: 'lease-table' });
if (dialects.includes('postgres')) {
  describeDispatcherContract({ dialect: 'postgres', dispatcher: 'lease-table' });
  describeDispatcherContract({ dialect: 'postgres', dispatcher: 'pg-boss' });
}
