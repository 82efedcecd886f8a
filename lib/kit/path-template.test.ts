import { describe, expect, it } from "vitest";
import { fillTemplate, matchTemplate, templateParams } from "./path-template";

describe("path templates", () => {
  const templates = ["/api/v1/glossaries", "/api/v1/glossaries/{id}", "/api/v1/glossaries/export", "/health"] as const;

  it("matches a templated segment to exactly one non-empty segment", () => {
    expect(matchTemplate(templates, "/api/v1/glossaries/5f0c2a8e-1d2b-4c3d-8e9f-0a1b2c3d4e5f")).toBe("/api/v1/glossaries/{id}");
    expect(matchTemplate(templates, "/api/v1/glossaries/not-a-uuid")).toBe("/api/v1/glossaries/{id}");
    expect(matchTemplate(templates, "/api/v1/glossaries/")).toBeUndefined();
    expect(matchTemplate(templates, "/api/v1/glossaries/a/b")).toBeUndefined();
    expect(matchTemplate(templates, "/api/v1/nothing/x")).toBeUndefined();
  });

  it("prefers an exact path to a templated one", () => {
    expect(matchTemplate(templates, "/api/v1/glossaries")).toBe("/api/v1/glossaries");
    expect(matchTemplate(templates, "/api/v1/glossaries/export")).toBe("/api/v1/glossaries/export");
    expect(matchTemplate(templates, "/health")).toBe("/health");
  });

  it("lists a template's parameters", () => {
    expect(templateParams("/api/v1/glossaries/{id}")).toEqual(["id"]);
    expect(templateParams("/a/{x}/b/{y}")).toEqual(["x", "y"]);
    expect(templateParams("/health")).toEqual([]);
  });

  it("fills every parameter with a sample value, and the result matches the template", () => {
    const id = "5f0c2a8e-1d2b-4c3d-8e9f-0a1b2c3d4e5f";
    expect(fillTemplate("/api/v1/glossaries/{id}", id)).toBe(`/api/v1/glossaries/${id}`);
    expect(fillTemplate("/health", id)).toBe("/health");
    expect(matchTemplate(templates, fillTemplate("/api/v1/glossaries/{id}", id))).toBe("/api/v1/glossaries/{id}");
  });
});
