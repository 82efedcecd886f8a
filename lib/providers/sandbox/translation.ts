import type { EmulatorOptions } from "./emulator";
import { sandboxMark } from "./respond";

/**
 * What an emulator answers for a translation request: the sandbox marker before a text that is either echoed (the
 * default: readable offline demos) or, with `translation: "hostile"`, treated as machine translation treats it at its
 * worst (hostileTranslation). The tests run the emulators hostile, so a syntax the gateway fails to protect shows as
 * a failing test rather than as a kind echo's pass.
 */
export function sandboxTranslation(opts: Pick<EmulatorOptions, "translation">, kind: string, detail: string, text: string): string {
  return sandboxMark(kind, detail, (opts.translation ?? defaultTranslation) === "hostile" ? hostileTranslation(text) : text);
}

export type SandboxTranslation = NonNullable<EmulatorOptions["translation"]>;

let defaultTranslation: SandboxTranslation = "echo";

/**
 * What emulators created without a `translation` option answer. The test suites' setup (e2e/support/sandbox-setup.ts)
 * makes it "hostile", so that every test that translates through an emulator meets machine translation at its worst.
 */
export function setDefaultSandboxTranslation(mode: SandboxTranslation): void {
  defaultTranslation = mode;
}

/** The localisation tokens of lib/localise (QZAX, QZBAX…): one word of capitals that machine translation copies. */
const TOKEN = /^QZ[A-W]+X$/i;

/**
 * Machine translation at its worst, deterministic:
 *  - markup it does not know is dropped: anything between `<` and `>` that starts like a tag (`<b>`, `</0>`, `<1/>`,
 *    `<x id="…"/>`, `<None>`);
 *  - escapes are mangled: the backslash of `\n`, `\'`, `\"`, `\u2026` is lost;
 *  - every word is changed, the names inside placeholders and ICU keywords included (`%(field)s` → `%(svryq)f`,
 *    `{count, plural, one {…}}` → `{pbhag, cyheny, bar {…}}`): each run of letters is rotated by 13 (ROT13), which
 *    changes every letter of every word;
 *  - a run of letters that is exactly a token passes unchanged; one glued to other letters (`QZAXcartQZBX`) is a word
 *    like any other, and is changed.
 * Whitespace, digits and punctuation other than the above pass, so separators and line structure survive.
 */
export function hostileTranslation(text: string): string {
  return text
    .replace(/<\/?[^\s<>][^<>]*>/g, "")
    .replace(/\\(.)/gs, "$1")
    .replace(/\p{L}+/gu, (word) => (TOKEN.test(word) ? word : rot13(word)));
}

function rot13(word: string): string {
  return word.replace(/[A-Za-z]/g, (c) => {
    const base = c <= "Z" ? 65 : 97;
    return String.fromCharCode(((c.charCodeAt(0) - base + 13) % 26) + base);
  });
}
