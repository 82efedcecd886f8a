"""Retries, errors and the multipart body against a scripted opener: no network, no waiting."""

import email.message
import email.parser
import email.utils
import io
import json
import socket
import time
import unittest
import urllib.error
import urllib.request
from typing import Any, Dict, List, Optional, Union

import lugha
from lugha._multipart import encode_multipart


class Answer:
    def __init__(self, status: int, body: Any = None, headers: Optional[Dict[str, str]] = None) -> None:
        self.status = status
        self.raw = body if isinstance(body, bytes) else json.dumps(body).encode("utf-8")
        self.headers = email.message.Message()
        self.headers["Content-Type"] = "application/json"
        for name, value in (headers or {}).items():
            self.headers[name] = value

    # The response protocol urllib's opener returns for a 2xx.
    def read(self) -> bytes:
        return self.raw

    def __enter__(self) -> "Answer":
        return self

    def __exit__(self, *args: Any) -> None:
        pass


class ScriptedOpener:
    def __init__(self, answers: List[Union[Answer, Exception]]) -> None:
        self.answers = answers
        self.requests: List[urllib.request.Request] = []

    def open(self, request: urllib.request.Request, timeout: Optional[float] = None) -> Answer:
        self.requests.append(request)
        answer = self.answers[min(len(self.requests), len(self.answers)) - 1]
        if isinstance(answer, Exception):
            raise answer
        if not 200 <= answer.status < 300:
            raise urllib.error.HTTPError(request.full_url, answer.status, "error", answer.headers, io.BytesIO(answer.raw))
        return answer


def envelope(code: str, **extra: Any) -> Dict[str, Any]:
    return {"detail": {"code": code, "message": f"{code} happened", "request_id": "req_123", **extra}}


def client(answers: List[Union[Answer, Exception]], **options: Any):
    opener = ScriptedOpener(answers)
    sleeps: List[float] = []
    c = lugha.Client("svc_test", "http://lugha.test/", opener=opener, sleep=sleeps.append, **options)  # type: ignore[arg-type]
    return c, opener, sleeps


class Retries(unittest.TestCase):
    def test_429_waits_retry_after_and_sends_the_same_request_again(self) -> None:
        c, opener, sleeps = client([Answer(429, envelope("RATE_LIMIT_EXCEEDED"), {"Retry-After": "7"}), Answer(200, {"translated_text": "ok"})])
        self.assertEqual(c.translate("Good morning", "lug")["translated_text"], "ok")
        self.assertEqual(sleeps, [7.0])
        self.assertEqual(len(opener.requests), 2)
        first, second = opener.requests
        self.assertEqual(first.full_url, "http://lugha.test/api/v1/translate")
        self.assertEqual(first.get_header("Authorization"), "Bearer svc_test")
        self.assertEqual(first.data, second.data)
        self.assertEqual(json.loads(second.data or b""), {"text": "Good morning", "target_lang": "lug"})

    def test_503_with_an_http_date_then_without_retry_after_backs_off(self) -> None:
        soon = email.utils.formatdate(time.time() + 3, usegmt=True)
        c, _, sleeps = client([Answer(503, envelope("PROVIDER_ERROR"), {"Retry-After": soon}), Answer(503, envelope("PROVIDER_ERROR"))])
        with self.assertRaises(lugha.LughaError) as caught:
            c.detect("hello")
        self.assertEqual((caught.exception.status, caught.exception.code), (503, "PROVIDER_ERROR"))
        self.assertEqual(len(sleeps), 2)
        self.assertTrue(2 <= sleeps[0] <= 4, sleeps)
        self.assertEqual(sleeps[1], 2.0)  # no Retry-After on the second: 2 ** attempt

    def test_a_wait_longer_than_max_wait_seconds_is_raised_at_once_with_retry_after(self) -> None:
        c, opener, sleeps = client([Answer(429, envelope("RATE_LIMIT_EXCEEDED"), {"Retry-After": "3600"})])
        with self.assertRaises(lugha.LughaError) as caught:
            c.translate("Hi", "lug")
        self.assertEqual(caught.exception.retry_after, 3600)
        self.assertEqual((sleeps, len(opener.requests)), ([], 1))

    def test_other_errors_are_not_retried(self) -> None:
        c, opener, _ = client([Answer(422, envelope("VALIDATION_ERROR", errors=[{"loc": ["body", "text"], "msg": "Field required", "type": "missing"}]))])
        with self.assertRaises(lugha.LughaError) as caught:
            c.translate("", "lug")
        err = caught.exception
        self.assertEqual((err.status, err.code, err.message, err.request_id), (422, "VALIDATION_ERROR", "VALIDATION_ERROR happened", "req_123"))
        self.assertEqual(err.errors, [{"loc": ["body", "text"], "msg": "Field required", "type": "missing"}])
        self.assertEqual(len(opener.requests), 1)
        self.assertIn("422 VALIDATION_ERROR", str(err))

    def test_max_retries_zero(self) -> None:
        c, opener, _ = client([Answer(429, envelope("RATE_LIMIT_EXCEEDED"), {"Retry-After": "1"})], max_retries=0)
        with self.assertRaises(lugha.LughaError):
            c.translate("Hi", "lug")
        self.assertEqual(len(opener.requests), 1)


class Errors(unittest.TestCase):
    def test_connection_errors_and_timeouts(self) -> None:
        c, _, _ = client([urllib.error.URLError(ConnectionRefusedError(111, "Connection refused"))])
        with self.assertRaises(lugha.LughaConnectionError) as caught:
            c.detect("x")
        self.assertEqual((caught.exception.status, caught.exception.code), (0, "CONNECTION_ERROR"))
        self.assertIsInstance(caught.exception, lugha.LughaError)
        c, _, _ = client([urllib.error.URLError(socket.timeout("timed out"))])
        with self.assertRaises(lugha.LughaConnectionError) as caught:
            c.detect("x")
        self.assertEqual(caught.exception.code, "TIMEOUT")

    def test_answers_that_are_not_the_api(self) -> None:
        c, _, _ = client([Answer(200, b"<html>")])
        with self.assertRaises(lugha.LughaError) as caught:
            c.detect("x")
        self.assertEqual(caught.exception.code, "INVALID_RESPONSE")
        c, _, _ = client([Answer(502, b"Bad gateway", {"X-Request-Id": "req_proxy"})])
        with self.assertRaises(lugha.LughaError) as caught:
            c.detect("x")
        self.assertEqual((caught.exception.code, caught.exception.request_id), ("HTTP_502", "req_proxy"))


class Requests(unittest.TestCase):
    def test_query_parameters_and_cache_control(self) -> None:
        c, opener, _ = client([Answer(200, {})])
        c.usage(from_="2026-01-01", group_by="endpoint")
        c.languages(capability="tts")
        c.translate("Hi", "lug", no_cache=True)
        self.assertEqual(opener.requests[0].full_url, "http://lugha.test/api/v1/usage?from=2026-01-01&group_by=endpoint")
        self.assertEqual(opener.requests[1].full_url, "http://lugha.test/api/v1/languages?capability=tts")
        self.assertEqual(opener.requests[2].get_header("Cache-control"), "no-cache")

    def test_request_log_query(self) -> None:
        c, opener, _ = client([Answer(200, {})])
        c.request_log(status="4xx", per_page=20)
        self.assertEqual(opener.requests[0].full_url, "http://lugha.test/api/v1/usage/requests?status=4xx&per_page=20")

    def test_create_key_and_health_send_no_key(self) -> None:
        c, opener, _ = client([Answer(200, {})])
        c.create_key("my app", expires_in_days=30)
        c.health()
        for request in opener.requests:
            self.assertIsNone(request.get_header("Authorization"))
        self.assertEqual(json.loads(opener.requests[0].data or b""), {"name": "my app", "expires_in_days": 30})

    def test_transcribe_uploads_a_multipart_form_or_sends_the_url_as_json(self) -> None:
        c, opener, _ = client([Answer(200, {"transcript": "ok"})])
        c.transcribe(b"RIFF\x00\x01", language="lug", provider="provider_a", filename='my "voice".wav')
        request = opener.requests[0]
        content_type = request.get_header("Content-type") or ""
        self.assertTrue(content_type.startswith("multipart/form-data; boundary="))
        parsed = email.parser.BytesParser().parsebytes(b"Content-Type: " + content_type.encode() + b"\r\n\r\n" + (request.data or b""))
        parts = {part.get_param("name", header="content-disposition"): part for part in parsed.get_payload()}
        self.assertEqual(parts["audio"].get_payload(decode=True), b"RIFF\x00\x01")
        self.assertEqual(parts["audio"].get_filename(), "my %22voice%22.wav")
        self.assertEqual(parts["language"].get_payload(), "lug")
        self.assertEqual(parts["provider"].get_payload(), "provider_a")

        c.transcribe(url="https://audio.example/a.mp3", language="sw")
        self.assertEqual(opener.requests[1].get_header("Content-type"), "application/json")
        self.assertEqual(json.loads(opener.requests[1].data or b""), {"audio_url": "https://audio.example/a.mp3", "language": "sw"})
        with self.assertRaises(TypeError):
            c.transcribe(language="sw")

    def test_speak_decodes_the_audio(self) -> None:
        c, _, _ = client([Answer(200, {"audio_base64": "UklGRg==", "content_type": "audio/wav"})])
        self.assertEqual(c.speak("Oli otya", "lug")["audio"], b"RIFF")

    def test_encode_multipart_fields_first(self) -> None:
        body, content_type = encode_multipart({"language": "lug"}, [("audio", "a.wav", "application/octet-stream", b"xyz")])
        boundary = content_type.split("boundary=")[1]
        self.assertTrue(body.startswith(f"--{boundary}\r\nContent-Disposition: form-data; name=\"language\"\r\n\r\nlug\r\n".encode()))
        self.assertTrue(body.endswith(f"xyz\r\n--{boundary}--\r\n".encode()))


class RetryAfter(unittest.TestCase):
    def test_parsing(self) -> None:
        self.assertEqual(lugha.retry_after_seconds("5"), 5.0)
        self.assertIsNone(lugha.retry_after_seconds(None))
        self.assertIsNone(lugha.retry_after_seconds("soon"))
        self.assertEqual(lugha.retry_after_seconds(email.utils.formatdate(time.time() - 60, usegmt=True)), 0.0)


if __name__ == "__main__":
    unittest.main()
