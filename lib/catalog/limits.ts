/** At most this many entries in one catalog (plural forms, array items and cues count one each). */
export const MAX_CATALOG_ENTRIES = 5_000;

/** Deepest nesting accepted in JSON, YAML, XML and Markdown: a real catalog nests a handful of levels. */
export const MAX_NESTING = 64;
