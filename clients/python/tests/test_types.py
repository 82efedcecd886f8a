"""lugha.types against the OpenAPI document the service serves: every TypedDict has the fields of its schema, the
same ones required, and the same enum values, so a change in the API fails here until the types follow it."""

import typing
import unittest
from typing import Any, Dict, List, Set

import lugha.types as T

from .support import openapi_document

# Each TypedDict and where its schema is: a component name, then .field, [] for array items, {} for map values.
SCHEMAS = {
    "TranslateRequest": "TranslateRequest",
    "BatchItem": "BatchItem",
    "BatchTranslateRequest": "BatchTranslateRequest",
    "DetectRequest": "DetectRequest",
    "TtsRequest": "TtsRequest",
    "SttForm": "SttForm",
    "IssueKeyRequest": "IssueKeyRequest",
    "TranslateResponse": "TranslateResponse",
    "BatchItemResult": "BatchItemResult",
    "BatchTranslateResponse": "BatchTranslateResponse",
    "CatalogFailure": "CatalogResponse.entries.failed[]",
    "CatalogEntries": "CatalogResponse.entries",
    "CatalogResponse": "CatalogResponse",
    "DetectResult": "DetectResult",
    "DetectCandidate": "DetectResult.candidates[]",
    "DetectResponse": "DetectResponse",
    "TranslationTarget": "TranslationTarget",
    "LanguageTranslation": "LanguageEntry.translation",
    "FromSource": "LanguageEntry.from_source",
    "SttProvider": "LanguageEntry.stt.providers[]",
    "LanguageStt": "LanguageEntry.stt",
    "Voice": "LanguageEntry.tts.providers[].voices[]",
    "TtsProvider": "LanguageEntry.tts.providers[]",
    "LanguageTts": "LanguageEntry.tts",
    "LanguageEntry": "LanguageEntry",
    "LanguagesResponse": "LanguagesResponse",
    "TranscriptSegment": "SttResponse.segments[]",
    "SttResponse": "SttResponse",
    "TtsResponse": "TtsResponse",
    "UsageTotals": "UsageResponse.totals",
    "UsageRow": "UsageRow",
    "UsageResponse": "UsageResponse",
    "RateLimit": "KeyDetails.rate_limits{}",
    "KeyDetails": "KeyDetails",
    "IssuedKey": "IssuedKey",
    "RevokedKey": "RevokedKey",
    "FieldError": "FieldError",
    "ErrorDetail": "ErrorBody.detail",
    "ErrorBody": "ErrorBody",
}
# TypedDicts of the client's own, not schemas of the API.
CLIENT_ONLY = {"SpeakResult"}


def typed_dicts() -> Dict[str, Any]:
    return {
        name: value
        for name, value in vars(T).items()
        if not name.startswith("_") and isinstance(value, type) and issubclass(value, dict) and hasattr(value, "__required_keys__")
    }


def resolve(document: Dict[str, Any], pointer: str) -> Dict[str, Any]:
    schemas = document["components"]["schemas"]

    def deref(schema: Dict[str, Any]) -> Dict[str, Any]:
        while "$ref" in schema:
            schema = schemas[schema["$ref"].rsplit("/", 1)[1]]
        return schema

    head, *rest = pointer.split(".")
    schema = deref(schemas[head.rstrip("[]{}")])
    for part in rest:
        name = part.rstrip("[]{}")
        schema = deref(schema["properties"][name])
        for suffix in part[len(name) :].replace("[]", "i").replace("{}", "m"):
            schema = deref(schema["items"] if suffix == "i" else schema["additionalProperties"])
    if head.endswith("[]"):
        schema = deref(schema["items"])
    return schema


def literal_values(annotation: Any) -> Set[Any]:
    """The Literal values a field allows (inside Optional and List too); empty when it is not a Literal."""
    origin = typing.get_origin(annotation)
    if origin is typing.Literal:
        return set(typing.get_args(annotation))
    if origin in (typing.Union, list, List):
        out: Set[Any] = set()
        for arg in typing.get_args(annotation):
            out |= literal_values(arg)
        return out
    return set()


def enum_values(schema: Dict[str, Any]) -> Set[Any]:
    if schema.get("type") == "array":
        return enum_values(schema.get("items", {}))
    return {v for v in schema.get("enum", []) if v is not None}


class TypesMatchTheServedDocument(unittest.TestCase):
    def test_every_typed_dict_is_checked(self) -> None:
        self.assertEqual(set(typed_dicts()) - CLIENT_ONLY, set(SCHEMAS))

    def test_fields_and_required_fields(self) -> None:
        document = openapi_document()
        for name, pointer in SCHEMAS.items():
            with self.subTest(name=name, schema=pointer):
                schema = resolve(document, pointer)
                cls = typed_dicts()[name]
                self.assertEqual(set(cls.__annotations__), set(schema.get("properties", {})), "field names")
                self.assertEqual(set(cls.__required_keys__), set(schema.get("required", [])), "required fields")

    def test_enum_values(self) -> None:
        document = openapi_document()
        checked = 0
        for name, pointer in SCHEMAS.items():
            schema = resolve(document, pointer)
            hints = typing.get_type_hints(typed_dicts()[name])
            for field, field_schema in schema.get("properties", {}).items():
                expected = enum_values(field_schema)
                if not expected or field_schema.get("type") == "boolean":
                    continue
                with self.subTest(type=name, field=field):
                    self.assertEqual(literal_values(hints[field]), expected)
                    checked += 1
        self.assertGreater(checked, 20)

    def test_every_operation_the_client_calls_is_in_the_document(self) -> None:
        paths = openapi_document()["paths"]
        for method, path in [
            ("post", "/api/v1/translate"),
            ("post", "/api/v1/translate/batch"),
            ("post", "/api/v1/translate/catalog"),
            ("post", "/api/v1/detect"),
            ("get", "/api/v1/languages"),
            ("post", "/api/v1/speech/stt"),
            ("post", "/api/v1/speech/tts"),
            ("get", "/api/v1/usage"),
            ("get", "/api/v1/auth/keys/me"),
            ("delete", "/api/v1/auth/keys/me"),
            ("post", "/api/v1/auth/keys"),
            ("get", "/health"),
        ]:
            with self.subTest(method=method, path=path):
                self.assertIn(method, paths.get(path, {}))
        query = {p["name"] for p in paths["/api/v1/usage"]["get"]["parameters"]}
        self.assertEqual(query, {"from", "to", "group_by"})
        query = {p["name"] for p in paths["/api/v1/languages"]["get"]["parameters"]}
        self.assertEqual(query, {"capability", "provider", "source"})


if __name__ == "__main__":
    unittest.main()
