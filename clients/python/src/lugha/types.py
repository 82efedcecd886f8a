"""The request and response bodies of the Lugha API, as TypedDicts named after the schemas of its OpenAPI document
(``/api/v1/openapi.json``, ``components.schemas``). Responses are the parsed JSON: plain dicts, typed for checkers.

tests/test_types.py compares every TypedDict here with the document the service serves (field names, which fields
are required, the values of enums), so a change in the API fails the tests until these follow it.
"""

from typing import Dict, List, Literal, Optional, TypedDict, Union

Provider = Literal["auto", "provider_a", "provider_b", "provider_c"]
ServingProvider = Literal["provider_a", "provider_b", "provider_c"]
TextFormat = Literal["text", "html", "markdown"]
QualityBand = Literal["excellent", "good", "decent", "acceptable", "poor"]
AudioFormat = Literal["wav", "mp3", "ogg", "webm", "flac", "m4a"]
DetectionMethod = Literal["script", "greeting", "default", "statistical", "language_id"]
UsageGroup = Literal["day", "endpoint", "status", "language_pair", "provider"]
SpeechFormat = Literal["wav", "mp3", "opus"]
ErrorCode = Literal[
    "INVALID_JSON",
    "MISSING_API_KEY",
    "INVALID_API_KEY",
    "NOT_FOUND",
    "METHOD_NOT_ALLOWED",
    "PAYLOAD_TOO_LARGE",
    "UNSUPPORTED_MEDIA_TYPE",
    "VALIDATION_ERROR",
    "UNSUPPORTED_LANGUAGE",
    "UNSUPPORTED_LANGUAGE_PAIR",
    "PROVIDER_UNSUPPORTED_PAIR",
    "TEXT_TOO_LONG",
    "BATCH_TOO_LARGE",
    "SAME_LANGUAGE",
    "UNSUPPORTED_VOICE",
    "RATE_LIMIT_EXCEEDED",
    "INTERNAL_ERROR",
    "PROVIDER_ERROR",
    "SERVICE_UNAVAILABLE",
]
ItemErrorCode = Literal[
    "VALIDATION_ERROR",
    "UNSUPPORTED_LANGUAGE",
    "UNSUPPORTED_LANGUAGE_PAIR",
    "PROVIDER_UNSUPPORTED_PAIR",
    "SAME_LANGUAGE",
    "TEXT_TOO_LONG",
    "PROVIDER_ERROR",
]
DetectReason = Literal["mixed", "default", "short_text", "close_candidates"]

# Requests. Python 3.9 has no Required/NotRequired: the required fields live in a base class with total=True.


class _TranslateRequestRequired(TypedDict):
    text: str
    target_lang: str


class TranslateRequest(_TranslateRequestRequired, total=False):
    """POST /api/v1/translate"""

    source_lang: Optional[str]
    provider: Provider
    cache: bool
    format: TextFormat
    do_not_translate: List[str]
    glossary_id: str


class _BatchItemRequired(TypedDict):
    id: str
    text: str
    target_lang: str


class BatchItem(_BatchItemRequired, total=False):
    """One item of POST /api/v1/translate/batch"""

    source_lang: Optional[str]
    format: TextFormat
    do_not_translate: List[str]
    glossary_id: str


class _BatchTranslateRequestRequired(TypedDict):
    items: List[BatchItem]


class BatchTranslateRequest(_BatchTranslateRequestRequired, total=False):
    """POST /api/v1/translate/batch"""

    provider: Provider
    cache: bool
    format: TextFormat
    do_not_translate: List[str]
    glossary_id: str


class DetectRequest(TypedDict, total=False):
    """POST /api/v1/detect: text or texts"""

    text: str
    texts: List[str]


class _TtsRequestRequired(TypedDict):
    text: str
    language: str


class TtsRequest(_TtsRequestRequired, total=False):
    """POST /api/v1/speech/tts"""

    voice: Union[str, int]
    provider: Provider
    format: SpeechFormat


class _SttFormRequired(TypedDict):
    audio: bytes
    language: str


class SttForm(_SttFormRequired, total=False):
    """POST /api/v1/speech/stt: the multipart form fields (Client.transcribe builds it)"""

    provider: Provider


class _IssueKeyRequestRequired(TypedDict):
    name: str


class IssueKeyRequest(_IssueKeyRequestRequired, total=False):
    """POST /api/v1/auth/keys"""

    expires_in_days: int


# Responses.


class TranslateResponse(TypedDict):
    translated_text: str
    detected_source_lang: str
    target_lang: str
    model_used: str
    provider: ServingProvider
    quality_score: float
    latency_ms: int
    characters_translated: int
    detected_source_confidence: Optional[float]
    detection_method: Optional[DetectionMethod]
    requested_provider: Provider
    fallback_used: bool
    providers_tried: List[ServingProvider]
    segments: int
    glossary_terms_applied: Optional[List[str]]
    sandbox: bool
    cached: bool
    upstream_calls: int


class BatchItemResult(TypedDict):
    id: str
    translated_text: Optional[str]
    detected_source_lang: Optional[str]
    target_lang: Optional[str]
    model_used: Optional[str]
    provider: Optional[ServingProvider]
    quality_score: Optional[float]
    error: Optional[str]
    error_code: Optional[ItemErrorCode]
    latency_ms: int
    characters_translated: Optional[int]
    fallback_used: Optional[bool]
    segments: Optional[int]
    glossary_terms_applied: Optional[List[str]]
    detection_method: Optional[DetectionMethod]
    sandbox: Optional[bool]
    cached: Optional[bool]


class BatchTranslateResponse(TypedDict):
    results: List[BatchItemResult]
    total: int
    succeeded: int
    failed: int
    total_latency_ms: int
    characters_translated: int
    sandbox: bool
    upstream_calls: int


CatalogFormat = Literal["json", "po", "xliff", "android", "strings", "arb", "yaml", "srt", "vtt", "markdown"]


class CatalogFailure(TypedDict):
    key: str
    error: str


class CatalogEntries(TypedDict):
    total: int
    translated: int
    kept: int
    kept_unverified: int
    pending: int
    failed: List[CatalogFailure]


class CatalogResponse(TypedDict):
    format: CatalogFormat
    content: str
    entries: CatalogEntries
    upstream_calls: int
    characters_translated: int
    source_lang: str
    target_lang: str
    provider: Optional[ServingProvider]
    model_used: Optional[str]
    source_hashes: Dict[str, str]
    retry_after_seconds: Optional[int]
    sandbox: bool


class DetectCandidate(TypedDict):
    language: str
    confidence: float


class DetectResult(TypedDict):
    language: str
    confidence: float
    reliable: bool
    reason: Optional[DetectReason]
    candidates: List[DetectCandidate]
    method: DetectionMethod


class DetectResponse(TypedDict):
    results: List[DetectResult]


class TranslationTarget(TypedDict):
    code: str
    provider: ServingProvider
    model: str
    quality_score: float
    quality_band: QualityBand


class LanguageTranslation(TypedDict):
    supported: bool
    targets: List[TranslationTarget]
    sources: List[str]


class FromSource(TypedDict):
    provider: ServingProvider
    model: str
    quality_score: float
    quality_band: QualityBand
    source: str


class SttProvider(TypedDict):
    provider: ServingProvider
    model: str
    formats: List[AudioFormat]


class LanguageStt(TypedDict):
    supported: bool
    providers: List[SttProvider]


class _VoiceRequired(TypedDict):
    id: str
    name: str
    model: str
    default: bool


class Voice(_VoiceRequired, total=False):
    gender: Literal["female", "male"]


class TtsProvider(TypedDict):
    provider: ServingProvider
    voices: List[Voice]


class LanguageTts(TypedDict):
    supported: bool
    providers: List[TtsProvider]


class _LanguageEntryRequired(TypedDict):
    code: str
    name: str
    native_name: str
    region: str
    aliases: List[str]
    detectable: bool
    translation: LanguageTranslation
    stt: LanguageStt
    tts: LanguageTts


class LanguageEntry(_LanguageEntryRequired, total=False):
    from_source: FromSource


class LanguagesResponse(TypedDict):
    languages: List[LanguageEntry]
    total: int


class TranscriptSegment(TypedDict):
    start: float
    end: float
    text: str


class SttResponse(TypedDict):
    transcript: str
    segments: Optional[List[TranscriptSegment]]
    language: str
    model_used: str
    provider: ServingProvider
    latency_ms: int
    audio_duration_seconds: float
    audio_content_type: str
    requested_provider: Provider
    fallback_used: bool
    providers_tried: List[ServingProvider]
    sandbox: bool
    upstream_calls: int


class TtsResponse(TypedDict):
    audio_base64: str
    content_type: str
    language: str
    voice: str
    model_used: str
    provider: ServingProvider
    latency_ms: int
    audio_duration_seconds: float
    requested_provider: Provider
    fallback_used: bool
    providers_tried: List[ServingProvider]
    sandbox: bool
    upstream_calls: int


class SpeakResult(TtsResponse):
    """The TTS answer with the audio decoded from audio_base64 (the file's bytes, of content_type). Not an API schema."""

    audio: bytes


class UsageTotals(TypedDict):
    requests: int
    characters: int
    cache_hits: int
    errors: int
    upstream_calls: int
    upstream_calls_by_provider: Dict[str, int]


class _UsageRowRequired(TypedDict):
    requests: int
    characters: int
    cache_hits: int
    errors: int
    upstream_calls: int
    upstream_calls_by_provider: Dict[str, int]


class UsageRow(_UsageRowRequired, total=False):
    """One group: exactly the field group_by names, and the counts"""

    day: str
    endpoint: str
    status: int
    language_pair: Optional[str]
    provider: Optional[str]


# "from" is a Python keyword: the functional form.
UsageResponse = TypedDict(
    "UsageResponse",
    {"from": str, "to": str, "group_by": UsageGroup, "totals": UsageTotals, "rows": List[UsageRow]},
)


class RateLimit(TypedDict):
    limit: int
    window_seconds: float


class KeyDetails(TypedDict):
    name: str
    created_at: str
    expires_at: str
    requests_total: int
    display_prefix: str
    last_used_at: Optional[str]
    rate_limits: Dict[str, RateLimit]


class IssuedKey(TypedDict):
    api_key: str
    name: str
    created_at: str
    expires_at: str


class RevokedKey(TypedDict):
    revoked: Literal[True]
    name: str
    display_prefix: str


class FieldError(TypedDict):
    loc: List[Union[str, int]]
    msg: str
    type: str


class _ErrorDetailRequired(TypedDict):
    code: ErrorCode
    message: str
    request_id: str


class ErrorDetail(_ErrorDetailRequired, total=False):
    errors: List[FieldError]


class ErrorBody(TypedDict):
    detail: ErrorDetail
