"""lugha.Client against the running service (sandbox providers): every operation, errors, a 429 waited out."""

import json
import os
import tempfile
import time
import unittest
from typing import List

import lugha

from .support import Stub, service, tone_wav


class AgainstTheService(unittest.TestCase):
    def setUp(self) -> None:
        # Per test, not per class: without a service each test fails on its own (a setUpClass error hides them).
        self.base_url, api_key = service()
        self.client = lugha.Client(api_key, base_url=self.base_url)

    def test_translate(self) -> None:
        result = self.client.translate("Good morning, how are you?", "lug", source_lang="en")
        self.assertTrue(result["translated_text"].startswith("[sandbox"), result)
        self.assertEqual((result["provider"], result["target_lang"], result["sandbox"]), ("provider_a", "lug", True))
        forced = self.client.translate("Thank you", "tw", provider="provider_b", no_cache=True)
        self.assertEqual((forced["provider"], forced["requested_provider"], forced["cached"]), ("provider_b", "provider_b", False))

    def test_translate_batch(self) -> None:
        result = self.client.translate_batch(
            [{"id": "a", "text": "Thank you", "source_lang": "en", "target_lang": "tw"}, {"id": "b", "text": "Hello", "target_lang": "xx-unknown"}]
        )
        self.assertEqual((result["total"], result["succeeded"], result["failed"]), (2, 1, 1))
        self.assertEqual([r["error_code"] for r in result["results"]], [None, "UNSUPPORTED_LANGUAGE"])

    def test_translate_catalog_and_continue_from_existing(self) -> None:
        content = '{"title": "Welcome", "greeting": "Hello, {name}!", "url": "https://example.org"}'
        first = self.client.translate_catalog("json", content, "en", "lug")
        self.assertEqual(first["entries"]["failed"], [])
        self.assertEqual((first["entries"]["total"], first["entries"]["pending"]), (3, 0))
        translated = json.loads(first["content"])
        self.assertTrue(translated["greeting"].startswith("[sandbox") and translated["greeting"].endswith("{name}!"), translated)
        self.assertEqual(translated["url"], "https://example.org")
        again = self.client.translate_catalog("json", content, "en", "lug", existing=first["content"], source_hashes=first["source_hashes"])
        self.assertEqual((again["entries"]["kept"], again["upstream_calls"]), (3, 0))
        with self.assertRaises(lugha.LughaError) as caught:
            self.client.translate_catalog("json", '{"a": "private words",', "en", "lug")
        self.assertEqual((caught.exception.status, caught.exception.code), (422, "VALIDATION_ERROR"))
        self.assertNotIn("private", caught.exception.message)

    def test_detect(self) -> None:
        one = self.client.detect("Good morning, how are you today?")
        self.assertEqual(one["results"][0]["language"], "en")
        many = self.client.detect(["Good morning, how are you today?", "Wasuze otya nno?"])
        self.assertEqual([r["language"] for r in many["results"]], ["en", "lug"])

    def test_languages(self) -> None:
        result = self.client.languages(capability="tts")
        self.assertGreater(result["total"], 0)
        self.assertTrue(all(language["tts"]["supported"] for language in result["languages"]))

    def test_transcribe_a_path_bytes_and_a_file_object(self) -> None:
        audio = tone_wav()
        with tempfile.TemporaryDirectory() as directory:
            path = os.path.join(directory, "tone.wav")
            with open(path, "wb") as f:
                f.write(audio)
            results = [self.client.transcribe(path, language="en")]
            results.append(self.client.transcribe(audio, language="en", filename="tone.wav"))
            with open(path, "rb") as f:
                results.append(self.client.transcribe(f, language="en", provider="auto"))
        for result in results:
            self.assertTrue(result["transcript"].startswith("[sandbox"), result)
            self.assertEqual(result["audio_content_type"], "audio/wav")
            self.assertAlmostEqual(result["audio_duration_seconds"], 1.5, places=2)

    def test_transcribe_a_url_sends_json(self) -> None:
        stub = Stub(body={"transcript": "fetched", "language": "sw"})
        try:
            result = lugha.Client("svc_test", base_url=stub.url).transcribe(url="https://audio.example/a.mp3", language="sw")
        finally:
            stub.close()
        self.assertEqual(result["transcript"], "fetched")
        request = stub.requests[0]
        self.assertEqual((request["method"], request["path"], request["headers"]["Content-Type"]), ("POST", "/api/v1/speech/stt", "application/json"))
        self.assertEqual(request["body"], b'{"audio_url": "https://audio.example/a.mp3", "language": "sw"}')

    def test_speak(self) -> None:
        result = self.client.speak("Oli otya", "lug")
        self.assertEqual(result["audio"][:4], b"RIFF")
        self.assertEqual(result["audio"][8:12], b"WAVE")
        self.assertEqual(result["content_type"], "audio/wav")

    def test_speak_a_voice_note(self) -> None:
        result = self.client.speak("Oli otya", "lug", format="opus")
        self.assertEqual(result["audio"][:4], b"OggS")
        self.assertIn(b"OpusHead", result["audio"][:64])
        self.assertEqual(result["content_type"], "audio/ogg; codecs=opus")
        self.assertGreaterEqual(result["upstream_calls"], 1)

    def test_usage_and_key_info(self) -> None:
        me = self.client.key_info()
        self.assertGreaterEqual(me["requests_total"], 1)
        self.assertEqual(set(me["rate_limits"]), {"translate", "batch", "stt", "tts", "default"})
        usage = self.client.usage(group_by="endpoint")
        self.assertEqual(usage["group_by"], "endpoint")
        self.assertGreaterEqual(usage["totals"]["requests"], 1)

    def test_create_and_revoke_a_key(self) -> None:
        issued = lugha.Client(base_url=self.base_url).create_key("python client revoke", expires_in_days=1)
        self.assertRegex(issued["api_key"], r"^svc_[0-9a-f]{40}$")
        mine = lugha.Client(issued["api_key"], base_url=self.base_url)
        self.assertEqual(mine.key_info()["name"], "python client revoke")
        self.assertEqual(mine.revoke_key()["revoked"], True)
        with self.assertRaises(lugha.LughaError) as caught:
            mine.key_info()
        self.assertEqual((caught.exception.status, caught.exception.code), (401, "INVALID_API_KEY"))

    def test_errors(self) -> None:
        with self.assertRaises(lugha.LughaError) as caught:
            self.client.translate("Hello", "xx-unknown")
        err = caught.exception
        self.assertEqual((err.status, err.code), (422, "UNSUPPORTED_LANGUAGE"))
        self.assertRegex(err.request_id or "", r"^req_")
        self.assertTrue(err.message)
        with self.assertRaises(lugha.LughaError) as caught:
            self.client.detect("   ")
        self.assertEqual(caught.exception.code, "VALIDATION_ERROR")
        self.assertTrue(caught.exception.errors)
        with self.assertRaises(lugha.LughaConnectionError):
            lugha.Client("svc_test", base_url="http://127.0.0.1:1").detect("hello")

    def test_a_429_is_waited_out_for_its_retry_after(self) -> None:
        key = lugha.Client(base_url=self.base_url).create_key("python client retries")["api_key"]
        sleeps: List[float] = []
        impatient = lugha.Client(key, base_url=self.base_url, max_retries=0)
        limit = impatient.key_info()["rate_limits"]["translate"]["limit"]
        self.assertLessEqual(limit, 5, "the service for these tests runs with a small RATE_LIMIT_TRANSLATE")
        for i in range(limit):
            impatient.translate(f"Good morning {i}", "lug", source_lang="en")
        with self.assertRaises(lugha.LughaError) as caught:
            impatient.translate("Good morning again", "lug", source_lang="en")
        refused = caught.exception
        self.assertEqual((refused.status, refused.code), (429, "RATE_LIMIT_EXCEEDED"))
        self.assertGreaterEqual(refused.retry_after or 0, 1)

        patient = lugha.Client(key, base_url=self.base_url, sleep=lambda s: (sleeps.append(s), time.sleep(s)))
        result = patient.translate("Good morning, finally", "lug", source_lang="en")
        self.assertTrue(result["translated_text"].startswith("[sandbox"))
        self.assertGreaterEqual(len(sleeps), 1)
        for seconds in sleeps:
            self.assertTrue(1 <= seconds <= 60, sleeps)


if __name__ == "__main__":
    unittest.main()
