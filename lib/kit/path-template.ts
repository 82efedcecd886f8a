/**
 * Path templates as the manifest and OpenAPI write them: a `{name}` segment stands for one non-empty path segment
 * ("/api/v1/glossaries/{id}" matches "/api/v1/glossaries/5f0c…", not "/api/v1/glossaries" or ".../a/b").
 */

const PARAMETER = /^\{([^{}/]+)\}$/;

/** The parameter names of a template, in order. */
export function templateParams(template: string): string[] {
  return template.split("/").flatMap((segment) => PARAMETER.exec(segment)?.[1] ?? []);
}

/** A concrete path for a template: every parameter segment replaced by `value` (tests use a sample id). */
export function fillTemplate(template: string, value: string): string {
  return template
    .split("/")
    .map((segment) => (PARAMETER.test(segment) ? value : segment))
    .join("/");
}

/** The template among `templates` that `pathname` names: an exact one first (as OpenAPI requires), else a templated one. */
export function matchTemplate<T extends string>(templates: readonly T[], pathname: string): T | undefined {
  if (templates.includes(pathname as T)) return pathname as T;
  const segments = pathname.split("/");
  return templates.find((template) => {
    const parts = template.split("/");
    return parts.length === segments.length && parts.every((part, i) => part === segments[i] || (PARAMETER.test(part) && segments[i] !== ""));
  });
}
