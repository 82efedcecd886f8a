"""Client for the Lugha translation and speech API for African languages.

    import lugha

    client = lugha.Client("svc_…", base_url="https://lugha.example.com")
    print(client.translate("Good morning", "lug")["translated_text"])
"""

from ._version import __version__
from .client import DEFAULT_BASE_URL, Client, retry_after_seconds
from .errors import LughaConnectionError, LughaError

__all__ = ["Client", "DEFAULT_BASE_URL", "LughaConnectionError", "LughaError", "__version__", "retry_after_seconds"]
