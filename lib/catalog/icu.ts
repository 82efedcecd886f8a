import { type MessageFormatElement, type PluralElement, parse as parseIcu, type SelectElement, TYPE } from "@formatjs/icu-messageformat-parser";
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
