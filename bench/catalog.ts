/**
 * The catalog the benchmark's `catalog-200` scenario sends to POST /api/v1/translate/catalog: a flat JSON catalog of
 * distinct UI strings, some with ICU placeholders ({name}, {date}) and plurals ({count, plural, one {…} other {…}}),
 * as an app's en.json would have them. Every string carries the run's number (the `run` argument) at its end, so a
 * catalog sent in a later run shares no text with an earlier one and neither a cache nor the coalescing of identical
 * texts in flight can answer it: each run costs the whole file's upstream calls.
 *
 *   npx tsx bench/catalog.ts [entries] [run]      prints the catalog
 */

const VERBS = ["save", "delete", "share", "archive", "download", "rename", "restore", "publish", "review", "export"];
const OBJECTS = [
  "the invoice",
  "your profile",
  "this report",
  "the draft",
  "the photo album",
  "your order",
  "the meeting notes",
  "this playlist",
  "the contract",
  "the school timetable",
  "your delivery address",
  "the price list",
  "the clinic schedule",
  "this survey",
  "the bus timetable",
  "the harvest record",
  "your savings plan",
  "the team calendar",
  "this recipe",
  "the water bill",
];

const capital = (s: string) => s[0].toUpperCase() + s.slice(1);

/** The i-th string (distinct for i < VERBS.length × OBJECTS.length = 200): eight shapes, two with a plural. */
function uiString(i: number): string {
  const verb = VERBS[i % VERBS.length];
  const object = OBJECTS[Math.floor(i / VERBS.length) % OBJECTS.length];
  switch (i % 8) {
    case 0:
      return `${capital(verb)} ${object}`;
    case 1:
      return `Do you want to ${verb} ${object}, {name}?`;
    case 2:
      return `{count, plural, one {# copy of ${object} is ready to ${verb}} other {# copies of ${object} are ready to ${verb}}}`;
    case 3:
      return `We could not ${verb} ${object}. Please try again in a few minutes.`;
    case 4:
      return `{name} asked you to ${verb} ${object} before {date}.`;
    case 5:
      return `You have {count, plural, one {# reminder to ${verb} ${object}} other {# reminders to ${verb} ${object}}}.`;
    case 6:
      return `Are you sure you want to ${verb} ${object}? This cannot be undone.`;
    default:
      return `${capital(verb)} ${object} now and get a receipt by email.`;
  }
}

/**
 * A flat JSON catalog (key → string) of `entries` distinct strings, each ending with run `run`'s mark. The 200 shapes
 * repeat past the 200th entry with the round in the mark ("(3.1)"), so a catalog of thousands (bench/growth.ts) has
 * no two equal strings either.
 */
export function catalogFixture(entries = 200, run = 1): string {
  const shapes = VERBS.length * OBJECTS.length;
  const catalog: Record<string, string> = {};
  for (let i = 0; i < entries; i++) {
    const round = Math.floor(i / shapes);
    catalog[`screen${Math.floor(i / 10)}.item${i % 10}`] = `${uiString(i % shapes)} (${run}${round ? `.${round}` : ""})`;
  }
  return `${JSON.stringify(catalog, null, 2)}\n`;
}

if (process.argv[1] && import.meta.filename === process.argv[1]) {
  process.stdout.write(catalogFixture(Number(process.argv[2] ?? 200), Number(process.argv[3] ?? 1)));
}
