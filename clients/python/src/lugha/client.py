"""The Lugha API client: one method per operation, standard library only (urllib)."""

import base64
import email.utils
import http.client
import json
import os
import socket
import time
import urllib.error
import urllib.parse
import urllib.request
from typing import IO, Any, Callable, Dict, Mapping, Optional, Sequence, Tuple, Union, cast

from ._multipart import encode_multipart
from ._version import __version__
from .errors import LughaConnectionError, LughaError, error_from_response
from .types import (
    BatchItem,
    BatchTranslateResponse,
    CatalogFormat,
    CatalogResponse,
    DetectResponse,
    IssuedKey,
    KeyDetails,
    LanguagesResponse,
    Provider,
    RevokedKey,
    SpeakResult,
    SpeechFormat,
    SttResponse,
    TextFormat,
    TranslateResponse,
    TtsResponse,
    UsageGroup,
    UsageResponse,
)

__all__ = ["Client", "DEFAULT_BASE_URL", "retry_after_seconds"]

DEFAULT_BASE_URL = "http://localhost:3000"
RETRYABLE = (429, 503)

#: What ``transcribe`` takes as audio: a file path, the bytes, or a file opened in binary mode.
AudioInput = Union[str, "os.PathLike[str]", bytes, bytearray, memoryview, IO[bytes]]


def retry_after_seconds(value: Optional[str]) -> Optional[float]:
    """Retry-After as seconds: delay-seconds or an HTTP date; None when absent or unreadable."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when is None:
        return None
    return max(0.0, float(int(when.timestamp() - time.time() + 0.999)))


class Client:
    """The Lugha API.

    >>> lugha = Client(os.environ["LUGHA_API_KEY"], base_url="https://lugha.example.com")
    >>> lugha.translate("Good morning", "lug")["translated_text"]

    Each method returns the parsed JSON answer and raises LughaError for an error answer, LughaConnectionError when the
    server cannot be reached. A 429, or a 503 (a provider or the service briefly unavailable), is sent again after the
    ``Retry-After`` it carries — or 1 s, then 2 s, … without one — at most ``max_retries`` times, never waiting longer
    than ``max_wait_seconds`` at once (a longer wait is raised straight away, with ``retry_after`` set).
    ``timeout`` is the socket timeout of one attempt, in seconds.
    """

    def __init__(
        self,
        api_key: Optional[str] = None,
        base_url: str = DEFAULT_BASE_URL,
        *,
        max_retries: int = 2,
        max_wait_seconds: float = 30.0,
        timeout: Optional[float] = 120.0,
        opener: Optional[urllib.request.OpenerDirector] = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.api_key = api_key
        self.base_url = base_url.rstrip("/")
        self.max_retries = max_retries
        self.max_wait_seconds = max_wait_seconds
        self.timeout = timeout
        self._opener = opener if opener is not None else urllib.request.build_opener()
        self._sleep = sleep

    def __repr__(self) -> str:
        return f"Client(base_url={self.base_url!r})"

    # Translation

    def translate(
        self,
        text: str,
        target_lang: str,
        *,
        source_lang: Optional[str] = None,
        provider: Optional[Provider] = None,
        format: Optional[TextFormat] = None,
        do_not_translate: Optional[Sequence[str]] = None,
        glossary_id: Optional[str] = None,
        no_cache: bool = False,
    ) -> TranslateResponse:
        """POST /api/v1/translate. The source language is detected when ``source_lang`` is None.
        ``no_cache=True`` asks the providers again instead of answering from the translation cache."""
        body = _without_none(
            text=text,
            target_lang=target_lang,
            source_lang=source_lang,
            provider=provider,
            format=format,
            do_not_translate=list(do_not_translate) if do_not_translate is not None else None,
            glossary_id=glossary_id,
        )
        return cast(TranslateResponse, self._request("POST", "/api/v1/translate", json_body=body, no_cache=no_cache))

    def translate_batch(
        self,
        items: Sequence[BatchItem],
        *,
        provider: Optional[Provider] = None,
        format: Optional[TextFormat] = None,
        do_not_translate: Optional[Sequence[str]] = None,
        glossary_id: Optional[str] = None,
        no_cache: bool = False,
    ) -> BatchTranslateResponse:
        """POST /api/v1/translate/batch: up to 50 items ``{"id", "text", "target_lang", "source_lang"?}``, each
        succeeding or failing on its own (check ``failed`` and each result's ``error_code``)."""
        body = _without_none(
            items=[dict(item) for item in items],
            provider=provider,
            format=format,
            do_not_translate=list(do_not_translate) if do_not_translate is not None else None,
            glossary_id=glossary_id,
        )
        return cast(BatchTranslateResponse, self._request("POST", "/api/v1/translate/batch", json_body=body, no_cache=no_cache))

    def translate_catalog(
        self,
        format: CatalogFormat,
        content: str,
        source_lang: str,
        target_lang: str,
        *,
        existing: Optional[str] = None,
        source_hashes: Optional[Mapping[str, str]] = None,
        do_not_translate: Optional[Sequence[str]] = None,
        glossary_id: Optional[str] = None,
        no_cache: bool = False,
    ) -> CatalogResponse:
        """POST /api/v1/translate/catalog: a whole catalog file (json, po, xliff, android, strings, arb, yaml, srt,
        vtt, markdown) into one language. ``existing`` (the current target file) and ``source_hashes`` (from the
        answer that produced it) keep what is already translated. Check ``entries["pending"]``: call again with
        ``existing=result["content"]`` and ``source_hashes=result["source_hashes"]`` to continue."""
        body = _without_none(
            format=format,
            content=content,
            source_lang=source_lang,
            target_lang=target_lang,
            existing=existing,
            source_hashes=dict(source_hashes) if source_hashes is not None else None,
            do_not_translate=list(do_not_translate) if do_not_translate is not None else None,
            glossary_id=glossary_id,
        )
        return cast(CatalogResponse, self._request("POST", "/api/v1/translate/catalog", json_body=body, no_cache=no_cache))

    def detect(self, text: Union[str, Sequence[str]]) -> DetectResponse:
        """POST /api/v1/detect: one text (one result) or up to 50 (a result each, in order)."""
        body: Dict[str, Any] = {"text": text} if isinstance(text, str) else {"texts": list(text)}
        return cast(DetectResponse, self._request("POST", "/api/v1/detect", json_body=body))

    def languages(
        self,
        *,
        capability: Optional[str] = None,
        provider: Optional[str] = None,
        source: Optional[str] = None,
    ) -> LanguagesResponse:
        """GET /api/v1/languages: every language and who translates, transcribes (stt) and speaks (tts) it."""
        query = _without_none(capability=capability, provider=provider, source=source)
        return cast(LanguagesResponse, self._request("GET", "/api/v1/languages", query=query))

    # Speech

    def transcribe(
        self,
        audio: Optional[AudioInput] = None,
        *,
        language: str,
        provider: Optional[Provider] = None,
        filename: Optional[str] = None,
        url: Optional[str] = None,
    ) -> SttResponse:
        """POST /api/v1/speech/stt. ``audio`` is a file path, bytes or a binary file object, uploaded as
        multipart/form-data (the format is recognised from the bytes; ``filename`` is only passed along). With
        ``url`` instead, the server fetches the recording itself: ``{"audio_url", "language"}`` is sent as JSON."""
        if (audio is None) == (url is None):
            raise TypeError("transcribe() takes audio or url=, exactly one of them")
        if url is not None:
            body = _without_none(audio_url=url, language=language, provider=provider)
            return cast(SttResponse, self._request("POST", "/api/v1/speech/stt", json_body=body))
        data, name = _read_audio(cast(AudioInput, audio))
        fields = _without_none(language=language, provider=provider)
        form, content_type = encode_multipart(fields, [("audio", filename or name, "application/octet-stream", data)])
        return cast(SttResponse, self._request("POST", "/api/v1/speech/stt", body=form, content_type=content_type))

    def speak(
        self,
        text: str,
        language: str,
        *,
        voice: Optional[Union[str, int]] = None,
        provider: Optional[Provider] = None,
        format: Optional[SpeechFormat] = None,
    ) -> SpeakResult:
        """POST /api/v1/speech/tts: the answer, with the audio decoded into ``audio``: a file in ``format`` ("wav",
        the default; "mp3"; or "opus", an Ogg/Opus voice note), its type in ``content_type``."""
        body = _without_none(text=text, language=language, voice=voice, provider=provider, format=format)
        answer = cast(TtsResponse, self._request("POST", "/api/v1/speech/tts", json_body=body))
        result = cast(SpeakResult, dict(answer))
        result["audio"] = base64.b64decode(answer["audio_base64"])
        return result

    # The key and its usage

    def usage(self, *, from_: Optional[str] = None, to: Optional[str] = None, group_by: Optional[UsageGroup] = None) -> UsageResponse:
        """GET /api/v1/usage: requests, characters, cache hits and errors of the key from ``from_`` to ``to``
        (UTC days, YYYY-MM-DD; default the last 30 days), per day or grouped by ``group_by``."""
        query = _without_none(**{"from": from_, "to": to, "group_by": group_by})
        return cast(UsageResponse, self._request("GET", "/api/v1/usage", query=query))

    def request_log(
        self,
        *,
        status: Optional[str] = None,
        endpoint: Optional[str] = None,
        request_id: Optional[str] = None,
        page: Optional[int] = None,
        per_page: Optional[int] = None,
    ) -> Dict[str, Any]:
        """GET /api/v1/usage/requests: the key's requests of the last 7 days, newest first — time, request_id,
        endpoint, status, latency_ms, provider, model_used, cache — filtered by ``status`` (a class such as "4xx", or
        "429"), ``endpoint`` ("POST /api/v1/translate") and ``request_id``, one ``page`` of ``per_page`` at a time."""
        query = _without_none(
            status=status,
            endpoint=endpoint,
            request_id=request_id,
            page=str(page) if page is not None else None,
            per_page=str(per_page) if per_page is not None else None,
        )
        return cast(Dict[str, Any], self._request("GET", "/api/v1/usage/requests", query=query))

    def key_info(self) -> KeyDetails:
        """GET /api/v1/auth/keys/me: the key's name, expiry, request count and rate limits."""
        return cast(KeyDetails, self._request("GET", "/api/v1/auth/keys/me"))

    def revoke_key(self) -> RevokedKey:
        """DELETE /api/v1/auth/keys/me: revokes the key this client uses."""
        return cast(RevokedKey, self._request("DELETE", "/api/v1/auth/keys/me"))

    def create_key(self, name: str, *, expires_in_days: Optional[int] = None) -> IssuedKey:
        """POST /api/v1/auth/keys (no key needed): a new key, in ``api_key``, shown this once."""
        body = _without_none(name=name, expires_in_days=expires_in_days)
        return cast(IssuedKey, self._request("POST", "/api/v1/auth/keys", json_body=body, anonymous=True))

    def health(self) -> Dict[str, Any]:
        """GET /health (no key needed)."""
        return cast(Dict[str, Any], self._request("GET", "/health", anonymous=True))

    # Transport

    def _request(
        self,
        method: str,
        path: str,
        *,
        json_body: Any = None,
        body: Optional[bytes] = None,
        content_type: Optional[str] = None,
        query: Optional[Mapping[str, Any]] = None,
        anonymous: bool = False,
        no_cache: bool = False,
    ) -> Any:
        url = self.base_url + path
        if query:
            url += "?" + urllib.parse.urlencode({k: str(v) for k, v in query.items()})
        headers = {"Accept": "application/json", "User-Agent": f"lugha-python/{__version__}"}
        if self.api_key and not anonymous:
            headers["Authorization"] = f"Bearer {self.api_key}"
        if no_cache:
            headers["Cache-Control"] = "no-cache"
        if json_body is not None:
            body = json.dumps(json_body).encode("utf-8")
            content_type = "application/json"
        if content_type:
            headers["Content-Type"] = content_type

        attempt = 0
        while True:
            status, raw, response_headers = self._send(urllib.request.Request(url, data=body, method=method, headers=headers))
            if status in RETRYABLE and attempt < self.max_retries:
                wait = retry_after_seconds(response_headers.get("Retry-After"))
                if wait is None:
                    wait = float(2**attempt)
                if wait <= self.max_wait_seconds:
                    self._sleep(wait)
                    attempt += 1
                    continue
            break
        if not 200 <= status < 300:
            raise error_from_response(status, raw, response_headers, retry_after_seconds(response_headers.get("Retry-After")))
        try:
            return json.loads(raw.decode("utf-8"))
        except ValueError as err:
            raise LughaError(
                status=status,
                code="INVALID_RESPONSE",
                message=f"{method} {path} answered {status} with a body that is not JSON: {raw[:200]!r}",
                request_id=response_headers.get("X-Request-Id"),
                body=raw,
            ) from err

    def _send(self, request: urllib.request.Request) -> Tuple[int, bytes, Mapping[str, str]]:
        """One attempt: (status, body, headers) whatever the status; LughaConnectionError when nothing came back."""
        try:
            with self._opener.open(request, timeout=self.timeout) as response:
                return response.status, response.read(), response.headers
        except urllib.error.HTTPError as err:
            try:
                return err.code, err.read(), err.headers
            finally:
                err.close()
        except (urllib.error.URLError, OSError, http.client.HTTPException) as err:
            reason = getattr(err, "reason", err)
            timed_out = isinstance(reason, (socket.timeout, TimeoutError)) or isinstance(err, (socket.timeout, TimeoutError))
            raise LughaConnectionError(
                status=0,
                code="TIMEOUT" if timed_out else "CONNECTION_ERROR",
                message=f"{self.base_url} did not answer in time" if timed_out else f"could not reach {self.base_url}: {reason}",
            ) from err


def _without_none(**fields: Any) -> Dict[str, Any]:
    return {k: v for k, v in fields.items() if v is not None}


def _read_audio(audio: AudioInput) -> Tuple[bytes, str]:
    """The bytes of the audio and a file name for it."""
    if isinstance(audio, (bytes, bytearray, memoryview)):
        return bytes(audio), "audio"
    if isinstance(audio, (str, os.PathLike)):
        path = os.fspath(audio)
        with open(path, "rb") as f:
            return f.read(), os.path.basename(path)
    data = audio.read()
    if not isinstance(data, bytes):
        raise TypeError("transcribe() needs a file opened in binary mode ('rb')")
    return data, os.path.basename(str(getattr(audio, "name", "audio")))
