export { DETECT_REASONS, DetectRequest, DetectResponse, DetectResult, MAX_DETECT_TEXTS } from "./schemas";
export { type DetectDeps, detectOne, detectSource, detectTexts, type LanguageIdentifier, RELIABLE_CONFIDENCE } from "./service";
