import { type MessageFormatElement, type PluralElement, parse as parseIcu, type SelectElement, TYPE } from "@formatjs/icu-messageformat-parser";
import { LimitExceeded, MAX_ICU_BRANCHES, MAX_ICU_DEPTH, MAX_ICU_EXPANDED_CHARS } from "./limits";
import type { PluralCategory } from "./types";

/**
 * ICU MessageFormat plurals for a target language: `{n, plural, one {# item} other {# items}}` lists the source
 * language's categories; the target may need others (Arabic: zero … many) or fewer (Yoruba: other only).
 *
 * adaptIcuPlurals() rewrites every plural and selectordinal argument, nested ones too, to the target's categories:
 * exact matches (`=0`, `=1`) are kept; a category the source has keeps its message; a category it lacks gets a copy
 * of the `other` message (to be translated with the rest); a category the target lacks is dropped. Everything else
 * is kept byte for byte; a rewritten argument's options are joined by the separator the source used between its
 * first two options (a single space if it had one option).
 *
 * `masked`, when given, is the same message with markup replaced by filler of equal length (XLIFF inline elements
 * whose attributes hold braces): it is what gets parsed, offsets then apply to `message`.
 *
 * Before anything is built, the expansion is measured on the parsed message (see checkExpansion): nesting deeper than
 * MAX_ICU_DEPTH, more than MAX_ICU_BRANCHES branches or more than MAX_ICU_EXPANDED_CHARS characters after expansion
 * throw LimitExceeded, so a short message cannot grow exponentially.
 */
export function adaptIcuPlurals(
  message: string,
  target: { categories: readonly PluralCategory[]; ordinal: readonly PluralCategory[] },
  masked = message,
): string {
  let ast: MessageFormatElement[];
  try {
    ast = parseIcu(masked, { ignoreTag: true, captureLocation: true });
  } catch {
    return message;
  }
  checkExpansion(ast, target, message.length);
  const text = message;
  const startOf = (el: { location?: { start: { offset: number } } }) => el.location!.start.offset;
  const endOf = (el: { location?: { end: { offset: number } } }) => el.location!.end.offset;

  const renderRange = (start: number, end: number, elements: MessageFormatElement[]): string => {
    let out = "";
    let at = start;
    for (const el of elements) {
      if (el.type !== TYPE.plural && el.type !== TYPE.select) continue;
      out += text.slice(at, startOf(el)) + renderChoice(el);
      at = endOf(el);
    }
    return out + text.slice(at, end);
  };

  const optionText = (option: { value: MessageFormatElement[]; location?: { start: { offset: number }; end: { offset: number } } }) =>
    `{${renderRange(startOf(option) + 1, endOf(option) - 1, option.value)}}`;

  const renderChoice = (el: PluralElement | SelectElement): string => {
    const entries = Object.entries(el.options);
    const wanted = el.type === TYPE.plural ? (el.pluralType === "ordinal" ? target.ordinal : target.categories) : undefined;
    const keywords = entries.filter(([k]) => !k.startsWith("=")).map(([k]) => k);
    const unchanged = !wanted || (keywords.length === wanted.length && wanted.every((c) => keywords.includes(c)));
    if (unchanged || !el.options.other) {
      // Same keys: keep the layout, rewrite nested arguments only.
      let out = "";
      let at = startOf(el);
      for (const [, option] of entries) {
        out += text.slice(at, startOf(option)) + optionText(option);
        at = endOf(option);
      }
      return out + text.slice(at, endOf(el));
    }
    const keyStart = (option: (typeof entries)[number][1]) => {
      let i = startOf(option);
      while (i > 0 && /\s/.test(text[i - 1])) i--;
      while (i > 0 && /[^\s,{}]/.test(text[i - 1])) i--;
      return i;
    };
    const first = entries[0][1];
    const header = text.slice(startOf(el), keyStart(first));
    const separator = entries.length > 1 ? text.slice(endOf(first), keyStart(entries[1][1])) : " ";
    const tail = text.slice(endOf(entries[entries.length - 1][1]), endOf(el));
    const gap = text.slice(keyStart(first) + entries[0][0].length, startOf(first)); // between a key and its message
    const parts = entries.filter(([k]) => k.startsWith("=")).map(([k, option]) => `${k}${gap}${optionText(option)}`);
    for (const category of wanted) parts.push(`${category}${gap}${optionText(el.options[category] ?? el.options.other)}`);
    return header + parts.join(separator) + tail;
  };

  return renderRange(0, text.length, ast);
}

type Located = { location?: { start: { offset: number }; end: { offset: number } } };
const span = (el: Located) => el.location!.end.offset - el.location!.start.offset;

/**
 * What adaptIcuPlurals() would make of `ast`, measured without building it: throws LimitExceeded as soon as the
 * nesting, the number of branches or the length (counted generously: each copied branch adds its key and braces)
 * passes its budget. Every branch counted is work within the budget, so the measuring is bounded too.
 */
function checkExpansion(
  ast: MessageFormatElement[],
  target: { categories: readonly PluralCategory[]; ordinal: readonly PluralCategory[] },
  length: number,
): void {
  let branches = 0;
  let chars = length;
  const visit = (elements: MessageFormatElement[], depth: number) => {
    for (const el of elements) {
      if (el.type !== TYPE.plural && el.type !== TYPE.select) continue;
      if (depth >= MAX_ICU_DEPTH) throw new LimitExceeded(`ICU plural and select arguments nested deeper than ${MAX_ICU_DEPTH} levels`);
      const entries = Object.entries(el.options);
      const wanted = el.type === TYPE.plural ? (el.pluralType === "ordinal" ? target.ordinal : target.categories) : undefined;
      const keywords = entries.filter(([k]) => !k.startsWith("=")).map(([k]) => k);
      // A category the target has and the source lacks gets a copy of `other`.
      const copies = !wanted || !el.options.other ? [] : wanted.filter((c) => !keywords.includes(c)).map((c) => [c, el.options.other, true] as const);
      for (const [key, option, copied] of [...entries.map(([k, o]) => [k, o, false] as const), ...copies]) {
        branches++;
        if (branches > MAX_ICU_BRANCHES)
          throw new LimitExceeded(`an ICU message with more than ${MAX_ICU_BRANCHES} plural and select branches for the target language`);
        if (copied) chars += key.length + span(option) + 2;
        if (chars > MAX_ICU_EXPANDED_CHARS)
          throw new LimitExceeded(`an ICU message longer than ${MAX_ICU_EXPANDED_CHARS} characters once expanded for the target language`);
        visit(option.value, depth + 1);
      }
    }
  };
  visit(ast, 0);
}
