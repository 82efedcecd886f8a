"""The errors the client raises."""

import json
from typing import Any, List, Mapping, Optional

from .types import FieldError


class LughaError(Exception):
    """An answer of the API that is not a success: ``{"detail": {"code", "message", "request_id"}}`` on the wire.

    ``status`` is the HTTP status, ``code`` the machine-readable reason (``RATE_LIMIT_EXCEEDED``, ``VALIDATION_ERROR``,
    …), ``message`` the explanation, ``request_id`` what to quote when reporting a problem, ``errors`` the invalid
    fields of a 422 (``[{"loc", "msg", "type"}]``), ``retry_after`` the seconds of a ``Retry-After`` header (429, 503)
    and ``body`` the response body as received. The client's own codes: ``CONNECTION_ERROR`` and ``TIMEOUT`` (see
    LughaConnectionError), ``INVALID_RESPONSE`` (a body that is not JSON), ``HTTP_<status>`` (an error without the
    API's envelope, e.g. from a proxy).
    """

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        request_id: Optional[str] = None,
        errors: Optional[List[FieldError]] = None,
        retry_after: Optional[float] = None,
        body: Any = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.request_id = request_id
        self.errors = errors
        self.retry_after = retry_after
        self.body = body

    def __str__(self) -> str:
        where = f" (request {self.request_id})" if self.request_id else ""
        return f"{self.status} {self.code}: {self.message}{where}"

    def __repr__(self) -> str:
        return f"{type(self).__name__}(status={self.status!r}, code={self.code!r}, message={self.message!r}, request_id={self.request_id!r})"


class LughaConnectionError(LughaError):
    """The server could not be reached or did not answer in time (``code`` CONNECTION_ERROR or TIMEOUT, ``status``
    0): nothing came back. The underlying exception is ``__cause__``."""


def error_from_response(status: int, raw: bytes, headers: Mapping[str, str], retry_after: Optional[float]) -> LughaError:
    """The LughaError a non-2xx answer stands for, from its ``{"detail": …}`` body when it has one."""
    text = raw.decode("utf-8", errors="replace")
    body: Any = text
    try:
        body = json.loads(text) if text else None
    except ValueError:
        pass
    detail = body.get("detail") if isinstance(body, dict) else None
    detail = detail if isinstance(detail, dict) else {}
    code = detail.get("code")
    message = detail.get("message")
    request_id = detail.get("request_id")
    errors = detail.get("errors")
    return LughaError(
        status=status,
        code=code if isinstance(code, str) else f"HTTP_{status}",
        message=message if isinstance(message, str) else f"HTTP {status}: {text[:200]}",
        request_id=request_id if isinstance(request_id, str) else headers.get("X-Request-Id"),
        errors=errors if isinstance(errors, list) else None,
        retry_after=retry_after,
        body=body,
    )
