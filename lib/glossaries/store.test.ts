import { beforeAll, describe, expect, it } from "vitest";
import { databaseSource } from "@/lib/db";
import { KeyStore } from "@/lib/keys/store";
import { apiError as thrown } from "@/lib/kit/test-support";
import { GLOSSARIES_PER_KEY } from "./schemas";
import { createGlossary, deleteGlossary, getGlossary, listGlossaries, resolveGlossary } from "./store";

// An in-memory PGlite, migrated with the committed migrations (lib/db), private to this test file.
const db = databaseSource({ kind: "pglite" }, { poolSize: 1 });
const keys = new KeyStore(db, { hashSecret: undefined, cacheTtlMs: 5_000, flushIntervalMs: 0 });
const issueKey = (name: string) => keys.issueKey(name);
const revokeKey = (id: string) => keys.revokeKey(id);

const body = (over: Partial<Parameters<typeof createGlossary>[2]> = {}) => ({
  source_lang: "en",
  target_lang: "sw",
  entries: [
    { source: "blood pressure", target: "shinikizo la damu" },
    { source: "clinic", target: "kliniki" },
  ],
  ...over,
});

async function newKey(name = "glossary test") {
  return (await issueKey(name)).row.id;
}

let owner: string;
let other: string;
// The first query starts PGlite and applies every migration: seconds alone, over the default 10 s hook timeout when
// the whole unit project runs in parallel on a busy machine.
beforeAll(async () => {
  owner = await newKey("owner");
  other = await newKey("other");
}, 60_000);

describe("glossary store", () => {
  it("creates with canonical language codes and reads back what was stored", async () => {
    const created = await createGlossary(db, owner, body({ name: "clinic", source_lang: " ENG ", target_lang: "swa" }));
    expect(created).toMatchObject({ name: "clinic", sourceLang: "en", targetLang: "sw", entryCount: 2 });
    expect(await getGlossary(db, owner, created.id)).toEqual(created);
  });

  it("lists the key's own glossaries, newest first, without entries", async () => {
    const key = await newKey();
    const first = await createGlossary(db, key, body(), new Date("2026-11-24T10:00:00Z"));
    const second = await createGlossary(db, key, body({ target_lang: "lug" }), new Date("2026-11-24T11:00:00Z"));
    await createGlossary(db, other, body());
    const list = await listGlossaries(db, key);
    expect(list.map((g) => g.id)).toEqual([second.id, first.id]);
    expect(list[0]).not.toHaveProperty("entries");
    expect(list[0]).toMatchObject({ sourceLang: "en", targetLang: "lug", entryCount: 2, name: null });
  });

  it("refuses unknown and equal languages with their own codes", async () => {
    const unknown = await thrown(createGlossary(db, owner, body({ target_lang: "xx" })));
    expect(unknown.code).toBe("UNSUPPORTED_LANGUAGE");
    expect(unknown.options.errors?.[0].loc).toEqual(["body", "target_lang"]);
    const same = await thrown(createGlossary(db, owner, body({ source_lang: "sw", target_lang: "swa" })));
    expect(same.code).toBe("SAME_LANGUAGE");
  });

  it("hides another key's glossary: get and delete are 404, resolve is 422 on glossary_id", async () => {
    const g = await createGlossary(db, owner, body());
    expect((await thrown(getGlossary(db, other, g.id))).code).toBe("NOT_FOUND");
    expect((await thrown(deleteGlossary(db, other, g.id))).code).toBe("NOT_FOUND");
    const foreign = await thrown(resolveGlossary(db, other, g.id, "en", "sw"));
    expect(foreign).toMatchObject({ code: "VALIDATION_ERROR", status: 422 });
    expect(foreign.options.errors).toEqual([{ loc: ["body", "glossary_id"], msg: "Unknown glossary", type: "glossary_not_found" }]);
    // Still there for its owner.
    expect((await getGlossary(db, owner, g.id)).id).toBe(g.id);
  });

  it("answers 404 for an id that is not a UUID, without asking the database to cast it", async () => {
    expect((await thrown(getGlossary(db, owner, "not-a-uuid"))).code).toBe("NOT_FOUND");
    expect((await thrown(deleteGlossary(db, owner, "'; DROP TABLE glossaries; --"))).code).toBe("NOT_FOUND");
  });

  it("deletes: gone for get, list and resolve; a second delete is 404", async () => {
    const g = await createGlossary(db, owner, body());
    await deleteGlossary(db, owner, g.id);
    expect((await thrown(getGlossary(db, owner, g.id))).code).toBe("NOT_FOUND");
    expect((await listGlossaries(db, owner)).map((x) => x.id)).not.toContain(g.id);
    expect((await thrown(resolveGlossary(db, owner, g.id, "en", "sw"))).options.errors?.[0].type).toBe("glossary_not_found");
    expect((await thrown(deleteGlossary(db, owner, g.id))).code).toBe("NOT_FOUND");
  });

  it("resolves only for the glossary's own pair, at the loc it is given", async () => {
    const g = await createGlossary(db, owner, body());
    expect(await resolveGlossary(db, owner, g.id, "en", "sw")).toEqual({ id: g.id, entries: body().entries });
    const reversed = await thrown(resolveGlossary(db, owner, g.id, "sw", "en", ["body", "items", 3, "glossary_id"]));
    expect(reversed.options.errors).toEqual([
      { loc: ["body", "items", 3, "glossary_id"], msg: "The glossary's language pair is not the request's", type: "glossary_pair_mismatch" },
    ]);
    expect((await thrown(resolveGlossary(db, owner, g.id, "en", "lug"))).options.errors?.[0].type).toBe("glossary_pair_mismatch");
  });

  it(`holds at most ${GLOSSARIES_PER_KEY} glossaries per key, also when creates race`, async () => {
    const key = await newKey();
    for (let i = 0; i < GLOSSARIES_PER_KEY - 2; i++) await createGlossary(db, key, body());
    const racing = await Promise.allSettled([createGlossary(db, key, body()), createGlossary(db, key, body()), createGlossary(db, key, body())]);
    expect(racing.map((r) => r.status).sort()).toEqual(["fulfilled", "fulfilled", "rejected"]);
    const refused = await thrown(createGlossary(db, key, body()));
    expect(refused).toMatchObject({ code: "VALIDATION_ERROR", status: 422 });
    expect(refused.options.errors).toEqual([{ loc: ["body"], msg: `At most ${GLOSSARIES_PER_KEY} glossaries per API key`, type: "glossary_limit" }]);
    expect(await listGlossaries(db, key)).toHaveLength(GLOSSARIES_PER_KEY);
    // Deleting one makes room again; another key is not affected by this one's count.
    await deleteGlossary(db, key, (await listGlossaries(db, key))[0].id);
    await createGlossary(db, key, body());
    await createGlossary(db, other, body());
  });

  it("revoking a key deletes its glossaries and no new one can be made with it", async () => {
    const key = await newKey();
    const g = await createGlossary(db, key, body());
    const kept = await createGlossary(db, other, body());
    await revokeKey(key);
    expect(await listGlossaries(db, key)).toEqual([]);
    expect((await thrown(getGlossary(db, key, g.id))).code).toBe("NOT_FOUND");
    expect((await thrown(createGlossary(db, key, body()))).code).toBe("INVALID_API_KEY");
    expect((await getGlossary(db, other, kept.id)).id).toBe(kept.id);
  });
});
