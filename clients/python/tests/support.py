"""What the tests share: the service they run against, a WAV to upload, a stub server that records requests."""

import io
import json
import math
import os
import struct
import threading
import urllib.request
import wave
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Dict, List, Optional, Tuple

CLIENT_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def service() -> Tuple[str, str]:
    """LUGHA_BASE_URL and LUGHA_API_KEY; a test that needs them fails (never skips) without them."""
    base_url = os.environ.get("LUGHA_BASE_URL")
    api_key = os.environ.get("LUGHA_API_KEY")
    if not base_url or not api_key:
        raise AssertionError("LUGHA_BASE_URL and LUGHA_API_KEY must name a running Lugha service and a key (npm test -- clients sets them)")
    return base_url.rstrip("/"), api_key


_document: Optional[Dict[str, Any]] = None


def openapi_document() -> Dict[str, Any]:
    """The OpenAPI document the service serves."""
    global _document
    if _document is None:
        base_url, _ = service()
        with urllib.request.urlopen(f"{base_url}/api/v1/openapi.json", timeout=30) as response:
            _document = json.loads(response.read().decode("utf-8"))
    return _document


def tone_wav(seconds: float = 1.5, rate: int = 16000) -> bytes:
    """A 440 Hz tone as a 16-bit mono PCM WAV file."""
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        frames = b"".join(struct.pack("<h", int(12000 * math.sin(2 * math.pi * 440 * i / rate))) for i in range(int(seconds * rate)))
        w.writeframes(frames)
    return buffer.getvalue()


class Stub:
    """A loopback HTTP server answering every request with one canned JSON body, recording what it received."""

    def __init__(self, status: int = 200, body: Any = None, headers: Optional[Dict[str, str]] = None) -> None:
        self.requests: List[Dict[str, Any]] = []
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def _answer(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                stub.requests.append(
                    {"method": self.command, "path": self.path, "headers": dict(self.headers), "body": self.rfile.read(length)}
                )
                payload = json.dumps(body).encode("utf-8")
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                for name, value in (headers or {}).items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(payload)

            do_GET = do_POST = do_DELETE = _answer

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
