export { type AddressClass, classifyAddress, parseAddress } from './address-class.js';
export {
  defaultOutboundSettings,
  type OutboundAllowEntry,
  type OutboundSettings,
  parseOutboundAllow,
} from './allow-list.js';
export { type Destination, demoEndpointHost, demoEndpointPath, EgressPolicy, effectivePort } from './egress-policy.js';
export {
  EgressDeniedError,
  type EgressRule,
  errorCodeOf,
  findEgressDenial,
  findOutboundError,
  type OutboundLimitCode,
  OutboundLimitError,
} from './outbound-errors.js';
export {
  createOutbound,
  defaultOutboundLimits,
  type Outbound,
  type OutboundLimits,
  type ResolveHost,
  readBoundedText,
} from './outbound-fetch.js';
