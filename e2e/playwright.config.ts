import { defineConfig } from "@playwright/test";

// The test orchestrator (scripts/test.ts) starts the app against a fresh database and passes BASE_URL.
const baseURL = process.env.BASE_URL ?? "http://127.0.0.1:3000";

export default defineConfig({
  testDir: ".",
  testMatch: "**/*.e2e.ts",
  timeout: 60_000,
  // The browser, the server and PostgreSQL share two cores: a sandboxed picture can take longer than
  // the default 5 s to boot its script worker, which is load, not a broken assertion.
  expect: { timeout: 15_000 },
  // One browser at a time: the player's budgets are wall-clock budgets, and two browsers running
  // QuickJS workers beside the server starved each other's pictures into watchdog stops.
  workers: 1,
  reporter: [["list"]],
  use: {
    baseURL,
    launchOptions: {
      executablePath: "/usr/bin/chromium",
      args: [
        "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--disable-background-networking",
        "--disable-component-update", "--no-first-run", "--disable-sync",
      ],
    },
  },
  projects: [
    { name: "rest", testDir: "./rest" },
    { name: "mcp", testDir: "./mcp" },
    { name: "svg", testDir: "./svg" },
    { name: "website", testDir: "./web" },
    { name: "operator", testDir: "./operator" },
  ],
});
