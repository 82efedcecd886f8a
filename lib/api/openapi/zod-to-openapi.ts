import { z } from "zod";

/**
 * zod 4 → OpenAPI 3.0 Schema Objects, with z.toJSONSchema's "openapi-3.0" target plus the few fixes OpenAPI 3.0
 * needs on top of it:
 *  - `examples: [x, …]` (JSON Schema) becomes `example: x` (the Schema Object of 3.0 has no `examples`)
 *  - the ±Number.MAX_SAFE_INTEGER bounds zod puts on every .int() are dropped (noise, not a rule of the API)
 *  - `$schema`/`id` keys, empty `definitions` and `contentEncoding`/`contentMediaType` (z.file(); 3.0 uses
 *    `format: binary`, which zod also emits) are removed
 *  - a nullable enum lists `null` among its values: OpenAPI 3.0.3 says `nullable: true` does not widen `enum`, so
 *    without it a null (a failed batch item's `provider`) fails validation against the document
 *  - responses do not get `additionalProperties: false` (zod's output mode adds it): new fields are additive, and a
 *    client generated from this document must not break when one appears
 * Shared schemas are registered under a name and referenced as #/components/schemas/<name>.
 */
export type SchemaObject = Record<string, unknown>;

const SAFE = Number.MAX_SAFE_INTEGER;

export function toOpenApiSchemas(schemas: Record<string, z.ZodType>, io: "input" | "output"): Record<string, SchemaObject> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(schemas)) registry.add(schema, { id });
  const out = z.toJSONSchema(registry, {
    target: "openapi-3.0",
    io,
    unrepresentable: "any",
    uri: (id) => `#/components/schemas/${id}`,
  });
  const result = Object.fromEntries(Object.entries(out.schemas).map(([id, s]) => [id, clean(s, io) as SchemaObject]));
  // zod leaves `examples` out of input-mode schemas that contain a transform; the examples are still request bodies.
  for (const [id, schema] of Object.entries(schemas)) {
    const examples = z.globalRegistry.get(schema)?.examples;
    if (result[id] && !("example" in result[id]) && Array.isArray(examples) && examples.length > 0) result[id].example = examples[0];
  }
  return result;
}

/** One schema, inline (no registry): for parameters and one-off bodies. */
export function toOpenApiSchema(schema: z.ZodType, io: "input" | "output" = "input"): SchemaObject {
  return clean(z.toJSONSchema(schema, { target: "openapi-3.0", io, unrepresentable: "any" }), io) as SchemaObject;
}

/** Cleans one Schema Object (keywords), recursing into sub-schemas; maps of field names are walked as maps. */
function clean(node: unknown, io: "input" | "output" = "input"): unknown {
  if (Array.isArray(node)) return node.map((n) => clean(n, io));
  if (!node || typeof node !== "object") return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node as Record<string, unknown>)) {
    if (k === "$schema" || ((k === "id" || k === "$id") && typeof v === "string")) continue;
    if (k === "contentEncoding" || k === "contentMediaType") continue; // JSON Schema 2019+; 3.0 says format: binary
    if (k === "properties" || k === "definitions" || k === "$defs" || k === "patternProperties") {
      const entries = Object.entries((v ?? {}) as Record<string, unknown>);
      if (entries.length === 0 && k !== "properties") continue;
      out[k] = Object.fromEntries(entries.map(([name, sub]) => [name, clean(sub, io)]));
      continue;
    }
    if (k === "examples" && Array.isArray(v)) {
      if (v.length > 0 && !("example" in (node as object))) out.example = v[0];
      continue;
    }
    if (k === "enum" && Array.isArray(v) && (node as { nullable?: unknown }).nullable === true && !v.includes(null)) {
      out[k] = [...v, null];
      continue;
    }
    if (k === "example" || k === "default" || k === "enum" || k === "required") {
      out[k] = v; // a value, not a schema
      continue;
    }
    if ((k === "minimum" && v === -SAFE) || (k === "maximum" && v === SAFE)) continue;
    if (k === "additionalProperties" && v === false && io === "output") continue;
    out[k] = clean(v, io);
  }
  return out;
}
