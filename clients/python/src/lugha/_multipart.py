"""multipart/form-data, built by hand with the standard library (what ``requests``' ``files=`` would send)."""

import uuid
from typing import List, Mapping, Tuple


def _quote(value: str) -> str:
    # As browsers do (HTML's multipart/form-data encoding): a quote or a line break cannot end the header early.
    return value.replace('"', "%22").replace("\r", "%0D").replace("\n", "%0A")


def encode_multipart(fields: Mapping[str, str], files: List[Tuple[str, str, str, bytes]]) -> Tuple[bytes, str]:
    """The body and its Content-Type: text ``fields`` first, then ``files`` as (field, filename, content type, bytes)."""
    boundary = f"----lugha-python-{uuid.uuid4().hex}"
    parts: List[bytes] = []
    for name, value in fields.items():
        head = f'--{boundary}\r\nContent-Disposition: form-data; name="{_quote(name)}"\r\n\r\n'
        parts.append(head.encode("utf-8") + value.encode("utf-8") + b"\r\n")
    for name, filename, content_type, data in files:
        head = (
            f"--{boundary}\r\n"
            f'Content-Disposition: form-data; name="{_quote(name)}"; filename="{_quote(filename)}"\r\n'
            f"Content-Type: {content_type}\r\n\r\n"
        )
        parts.append(head.encode("utf-8") + data + b"\r\n")
    parts.append(f"--{boundary}--\r\n".encode("ascii"))
    return b"".join(parts), f"multipart/form-data; boundary={boundary}"
