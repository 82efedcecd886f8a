export {
  type ChainFailed,
  type ChainFailure,
  type ChainSuccess,
  chainFailure,
  concernsRouteOnly,
  FALLBACK_SHARE,
  type FailureContext,
  MIN_CALL_MS,
  type Route,
  type RouteValue,
  routingFields,
  runChain,
} from "./chain";
export { fieldError, providerChoiceError } from "./fields";
