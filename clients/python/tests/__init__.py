"""Tests of the Python client: `python3 -m unittest discover -s clients/python/tests -t clients/python`.

They import the client from src/ (test_install.py installs it with pip and imports that copy instead), and run
against a Lugha service in sandbox mode named by LUGHA_BASE_URL, with an API key in LUGHA_API_KEY; `npm test -- clients`
starts one (scripts/test.mjs). Without them the tests that need the service fail: none is skipped.
"""

import os
import sys

SRC = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "src")
if SRC not in sys.path:
    sys.path.insert(0, SRC)
