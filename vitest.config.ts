import { defineConfig } from "vitest/config";

// Test tiers are told apart by file name: *.test.ts is pure, *.int.test.ts needs a real PostgreSQL (DATABASE_URL).
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "unit",
          include: ["packages/*/src/**/*.test.ts", "apps/*/src/**/*.test.ts", "scripts/**/*.test.ts"],
          exclude: ["**/*.int.test.ts", "**/node_modules/**"],
          testTimeout: 20_000,
        },
      },
      {
        test: {
          name: "int",
          include: ["packages/*/src/**/*.int.test.ts", "apps/*/src/**/*.int.test.ts", "scripts/**/*.int.test.ts"],
          exclude: ["**/node_modules/**"],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          globalSetup: ["./packages/testkit/src/global-setup.ts"],
          fileParallelism: true,
          maxWorkers: 2,
        },
      },
    ],
  },
});
