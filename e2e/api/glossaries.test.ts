import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { call, expectEnvelope, mintKey } from "../support/api";
import { freshDatabaseUrl, type RunningApp, startApp, stopAllApps } from "../support/app";
import { sql } from "../support/db";

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let app: RunningApp;
let key: string;
let otherKey: string;

beforeAll(async () => {
  app = await startApp();
  [key, otherKey] = await Promise.all([mintKey(app.url, "glossary owner"), mintKey(app.url, "someone else")]);
});
afterAll(stopAllApps);

const clinic = {
  name: "clinic",
  source_lang: "eng",
  target_lang: "SW",
  entries: [
    { source: " blood pressure ", target: "shinikizo la damu" },
    { source: "M-Pesa", target: "M-Pesa" },
  ],
};

const create = (json: unknown, k = key) => call(app.url, "POST", "/api/v1/glossaries", { key: k, json });

describe("glossary CRUD over HTTP", () => {
  it("creates (201, Location), reads back, lists newest first without entries, deletes", async () => {
    const created = await create(clinic);
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(UUID),
      name: "clinic",
      source_lang: "en",
      target_lang: "sw",
      entry_count: 2,
      created_at: expect.stringMatching(ISO_UTC),
      entries: [
        { source: "blood pressure", target: "shinikizo la damu" },
        { source: "M-Pesa", target: "M-Pesa" },
      ],
    });
    const id = created.body.id as string;
    expect(created.headers.get("location")).toBe(`/api/v1/glossaries/${id}`);
    expect(created.headers.get("x-ratelimit-limit")).toBeTruthy();

    const got = await call(app.url, "GET", `/api/v1/glossaries/${id}`, { key });
    expect(got.status).toBe(200);
    expect(got.body).toEqual(created.body);

    const newer = await create({ source_lang: "en", target_lang: "lug", csv: "clinic,kiliniki" });
    expect(newer.status).toBe(201);
    const list = await call(app.url, "GET", "/api/v1/glossaries", { key });
    expect(list.status).toBe(200);
    expect(list.body.limit).toBe(100);
    expect(list.body.glossaries.map((g: { id: string }) => g.id).slice(0, 2)).toEqual([newer.body.id, id]);
    expect(list.body.total).toBe(list.body.glossaries.length);
    const { entries: _, ...summary } = created.body;
    expect(list.body.glossaries[1]).toEqual(summary);

    const deleted = await call(app.url, "DELETE", `/api/v1/glossaries/${id}`, { key });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ deleted: true, id });
    expectEnvelope(await call(app.url, "GET", `/api/v1/glossaries/${id}`, { key }), 404, "NOT_FOUND");
    expectEnvelope(await call(app.url, "DELETE", `/api/v1/glossaries/${id}`, { key }), 404, "NOT_FOUND");
    const after = await call(app.url, "GET", "/api/v1/glossaries", { key });
    expect(after.body.glossaries.map((g: { id: string }) => g.id)).not.toContain(id);
  });

  it("reads CSV with a BOM, header row, CRLF and quotes, and TSV", async () => {
    const csv = '\uFEFFsource,target\r\n"Dr. ""Okello"", MD",Dokita Okello\r\n\r\nclinic,kiliniki\r\n';
    const res = await create({ source_lang: "en", target_lang: "lug", csv });
    expect(res.status).toBe(201);
    expect(res.body.entries).toEqual([
      { source: 'Dr. "Okello", MD', target: "Dokita Okello" },
      { source: "clinic", target: "kiliniki" },
    ]);
    const tsv = await create({ source_lang: "en", target_lang: "yo", tsv: "source\ttarget\nmarket, town\tọjà ìlú\n" });
    expect(tsv.status).toBe(201);
    expect(tsv.body.entries).toEqual([{ source: "market, town", target: "ọjà ìlú" }]);
  });

  it("hides a glossary from every other key: 404 on get and delete, absent from its list", async () => {
    const mine = await create(clinic);
    expectEnvelope(await call(app.url, "GET", `/api/v1/glossaries/${mine.body.id}`, { key: otherKey }), 404, "NOT_FOUND");
    expectEnvelope(await call(app.url, "DELETE", `/api/v1/glossaries/${mine.body.id}`, { key: otherKey }), 404, "NOT_FOUND");
    const theirs = await call(app.url, "GET", "/api/v1/glossaries", { key: otherKey });
    expect(theirs.body.glossaries.map((g: { id: string }) => g.id)).not.toContain(mine.body.id);
    // Not deleted by the other key's attempt.
    expect((await call(app.url, "GET", `/api/v1/glossaries/${mine.body.id}`, { key })).status).toBe(200);
  });

  it("answers 404 for ids that are not UUIDs or not there, 401 without a key, 405 for other methods", async () => {
    for (const id of ["not-a-uuid", "00000000-0000-4000-8000-000000000000", "'%20OR%201=1", "..%2Fkeys"])
      expectEnvelope(await call(app.url, "GET", `/api/v1/glossaries/${id}`, { key }), 404, "NOT_FOUND");
    expectEnvelope(await call(app.url, "GET", "/api/v1/glossaries"), 401, "MISSING_API_KEY");
    expectEnvelope(await call(app.url, "POST", "/api/v1/glossaries", { json: clinic }), 401, "MISSING_API_KEY");
    const put = await call(app.url, "PUT", "/api/v1/glossaries/00000000-0000-4000-8000-000000000000", { key, json: clinic });
    expectEnvelope(put, 405, "METHOD_NOT_ALLOWED");
    expect(put.headers.get("allow")).toBe("GET, DELETE, HEAD, OPTIONS");
    expectEnvelope(await call(app.url, "DELETE", "/api/v1/glossaries", { key }), 405, "METHOD_NOT_ALLOWED");
  });
});

describe("glossary validation over HTTP", () => {
  it.each([
    [
      "an empty source",
      {
        entries: [
          { source: "ok", target: "sawa" },
          { source: " ", target: "x" },
        ],
      },
      ["body", "entries", 1, "source"],
      "string_too_short",
    ],
    ["an over-long target", { entries: [{ source: "ok", target: "SECRET".repeat(40) }] }, ["body", "entries", 0, "target"], "string_too_long"],
    [
      "a duplicate source (ignoring case)",
      {
        entries: [
          { source: "Clinic", target: "a" },
          { source: "clinic", target: "b" },
        ],
      },
      ["body", "entries", 1, "source"],
      "duplicate_term",
    ],
    ["a CSV line with one field", { csv: "source,target\nclinic,kiliniki\nSECRET" }, ["body", "csv", 3], "field_count"],
    ["a CSV quote never closed", { csv: 'clinic,"SECRET' }, ["body", "csv", 1], "invalid_syntax"],
    ["a TSV duplicate", { tsv: "a\tb\nA\tc" }, ["body", "tsv", 2], "duplicate_term"],
    [
      "more than 1,000 entries",
      { entries: Array.from({ length: 1001 }, (_, i) => ({ source: `t${i}`, target: "x" })) },
      ["body", "entries"],
      "too_long",
    ],
    ["no entries at all", {}, ["body", "entries"], "missing"],
    ["entries and csv together", { entries: [{ source: "a", target: "b" }], csv: "a,b" }, ["body"], "conflicting_fields"],
  ])("refuses %s with 422 VALIDATION_ERROR on the entry, never echoing it", async (_, extra, loc, type) => {
    const res = await create({ source_lang: "en", target_lang: "sw", ...extra });
    const detail = expectEnvelope(res, 422, "VALIDATION_ERROR");
    expect(detail.errors).toContainEqual(expect.objectContaining({ loc, type }));
    expect(res.text).not.toContain("SECRET");
  });

  it("refuses unknown and equal languages with their own codes", async () => {
    const unknown = expectEnvelope(await create({ ...clinic, source_lang: "SECRETLANG" }), 422, "UNSUPPORTED_LANGUAGE");
    expect(unknown.errors).toEqual([{ loc: ["body", "source_lang"], msg: expect.any(String), type: "unsupported_language" }]);
    expect(unknown.message).not.toContain("SECRETLANG");
    expectEnvelope(await create({ ...clinic, source_lang: "sw", target_lang: "swa" }), 422, "SAME_LANGUAGE");
  });

  it("takes a body up to 256 kB and refuses a larger one with 413", async () => {
    const entries = Array.from({ length: 1000 }, (_, i) => ({ source: `${i} ${"s".repeat(100)}`, target: "t".repeat(100) }));
    const big = await create({ source_lang: "en", target_lang: "sw", entries });
    expect(big.status).toBe(201);
    expect(big.body.entry_count).toBe(1000);
    const tooBig = entries.map((e) => ({ ...e, target: "t".repeat(150) }));
    expectEnvelope(await create({ source_lang: "en", target_lang: "sw", entries: tooBig }), 413, "PAYLOAD_TOO_LARGE");
  });
});

describe("per-key limit and revocation", () => {
  it("holds exactly 100 glossaries per key, also when creates race", async () => {
    const k = await mintKey(app.url, "hundred");
    const small = { source_lang: "en", target_lang: "sw", entries: [{ source: "a", target: "b" }] };
    for (let i = 0; i < 98; i++) expect((await create(small, k)).status).toBe(201);
    const racing = await Promise.all([create(small, k), create(small, k), create(small, k)]);
    expect(racing.map((r) => r.status).sort()).toEqual([201, 201, 422]);
    const refused = expectEnvelope(await create(small, k), 422, "VALIDATION_ERROR");
    expect(refused.errors).toEqual([{ loc: ["body"], msg: expect.any(String), type: "glossary_limit" }]);
    expect((await call(app.url, "GET", "/api/v1/glossaries", { key: k })).body.total).toBe(100);
  });

  it("revoking a key deletes its glossaries from the database", async () => {
    const onPglite = inject("database") === "pglite";
    const dir = onPglite ? mkdtempSync(path.join(tmpdir(), "lugha-pglite-")) : undefined;
    const databaseUrl = onPglite ? `pglite:${dir}` : await freshDatabaseUrl();
    try {
      const instance = await startApp({ databaseUrl });
      const [doomed, kept] = await Promise.all([mintKey(instance.url, "doomed"), mintKey(instance.url, "kept")]);
      const post = (k: string) => call(instance.url, "POST", "/api/v1/glossaries", { key: k, json: clinic });
      for (let i = 0; i < 2; i++) expect((await post(doomed)).status).toBe(201);
      const stays = (await post(kept)).body.id;
      expect((await call(instance.url, "DELETE", "/api/v1/auth/keys/me", { key: doomed })).status).toBe(200);
      expect((await call(instance.url, "GET", `/api/v1/glossaries/${stays}`, { key: kept })).status).toBe(200);
      if (onPglite) await instance.stop(); // PGlite: one process per directory
      const rows = await sql<{ id: string }>(databaseUrl, "SELECT id FROM glossaries");
      expect(rows.map((r) => r.id)).toEqual([stays]);
      await instance.stop();
    } finally {
      if (dir) rmSync(dir, { recursive: true, force: true });
    }
  });
});
