/**
 * "123 / 5,000 characters" under a text field, counting as the API does (Unicode code points after trimming), with a
 * warning past the endpoint's limit (the API would refuse the text with a 422).
 */
export function CharCounter({ id, text, limit, what = "characters" }: { id: string; text: string; limit: number; what?: string }) {
  const n = [...text.trim()].length;
  const over = n - limit;
  return (
    <p id={id} className={`mt-1 text-xs ${over > 0 ? "font-semibold text-red-800" : "text-slate-700"}`} data-testid="char-counter">
      {n.toLocaleString("en-US")} / {limit.toLocaleString("en-US")} {what}
      {over > 0 && ` — ${over.toLocaleString("en-US")} over the limit: the API refuses a longer text (422)`}
    </p>
  );
}

/** A labelled "Text" area with its counter below (the counter describes the field for screen readers). */
export function TextField({
  id,
  text,
  onChange,
  limit,
  rows = 3,
}: {
  id: string;
  text: string;
  onChange: (text: string) => void;
  limit: number;
  rows?: number;
}) {
  return (
    <div>
      <label htmlFor={`${id}-text`} className="field-label">
        Text
      </label>
      <textarea
        id={`${id}-text`}
        rows={rows}
        className="field-input"
        value={text}
        onChange={(e) => onChange(e.target.value)}
        aria-describedby={`${id}-count`}
      />
      <CharCounter id={`${id}-count`} text={text} limit={limit} />
    </div>
  );
}
