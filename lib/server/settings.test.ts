import { expect, it } from "vitest";
import { loadConfig } from "@/lib/config";
import { mcpAllowedHosts } from "./settings";

it("/mcp answers under the loopback names by default, the listed names when set, and NEXTAUTH_URL's host either way", () => {
  expect(mcpAllowedHosts(loadConfig({}))).toEqual(["localhost", "127.0.0.1", "[::1]"]);
  expect(mcpAllowedHosts(loadConfig({ MCP_ALLOWED_HOSTS: " Lugha.Example.org , api.example.org " }))).toEqual([
    "lugha.example.org",
    "api.example.org",
  ]);
  expect(mcpAllowedHosts(loadConfig({ NEXTAUTH_URL: "https://Portal.Example.org/app" }))).toEqual([
    "localhost",
    "127.0.0.1",
    "[::1]",
    "portal.example.org",
  ]);
  expect(mcpAllowedHosts(loadConfig({ MCP_ALLOWED_HOSTS: "portal.example.org", NEXTAUTH_URL: "https://portal.example.org" }))).toEqual([
    "portal.example.org",
  ]);
});
