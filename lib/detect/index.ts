export { DETECT_REASONS, DetectRequest, DetectResponse, DetectResult, MAX_DETECT_TEXTS } from "./schemas";
export { detectOne, detectTexts, RELIABLE_CONFIDENCE } from "./service";
