/** Long texts for the segmentation tests (unit, emulator and HTTP). Not imported by runtime code. */

const SENTENCES = [
  "The rains came early this year, and the farmers in the valley planted their maize two weeks before the usual time.",
  "Children walked to school along the red dirt road, carrying their books wrapped in plastic against the weather.",
  "At the market, traders sold tomatoes, onions, dried fish and bright cloth from stalls that opened before sunrise.",
  "The health worker explained how to keep drinking water clean: boil it, cover it, and pour it out with a clean cup.",
  "Will the new bridge be finished before the harvest?",
  "Nobody in the village could say for certain!",
  "In the evening, families gathered around the radio to hear the news and the football results from the capital.",
  "The teacher asked each pupil to write a short letter to a friend in another town, describing their own village.",
];

/**
 * English prose of at most `chars` characters (and within a sentence of it): paragraphs of three to five sentences
 * separated by blank lines, one paragraph with a single line break inside and one with a double space, so a test can
 * check that the layout survives splitting and joining.
 */
export function englishParagraphs(chars: number): string {
  let text = "";
  let sentence = 0;
  for (let paragraph = 0; ; paragraph++) {
    let body = "";
    for (let i = 0; i < 3 + (paragraph % 3); i++) {
      const gap = body === "" ? "" : paragraph === 1 && i === 2 ? "\n" : paragraph === 2 && i === 1 ? "  " : " ";
      const next = body + gap + SENTENCES[sentence % SENTENCES.length];
      const candidate = text === "" ? next : `${text}\n\n${next}`;
      if (candidate.length > chars) return body === "" ? text : text === "" ? body : `${text}\n\n${body}`;
      body = next;
      sentence++;
    }
    text = text === "" ? body : `${text}\n\n${body}`;
  }
}
