/** Length in Unicode code points — what "characters" means everywhere in the API (an emoji or 𝔸 counts once). */
export function codePointLength(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}
