import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["**/node_modules/**", "**/.next/**", "**/generated/**", "**/dist/**", "**/builds/**", "data/**"] },
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-explicit-any": "off",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      // Dependency direction: domain <- contracts <- services <- {api, mcp, web}; only db touches Prisma.
      "no-restricted-imports": ["error", { paths: [{ name: "@prisma/client", message: "Only packages/db may import Prisma." }] }],
    },
  },
  {
    files: ["packages/domain/**"],
    rules: { "no-restricted-imports": ["error", { patterns: [{ group: ["@board/*", "@prisma/*", "pg"], message: "domain is pure: no I/O and no other board package." }] }] },
  },
  {
    files: ["packages/api/**", "packages/mcp/**", "apps/web/**", "packages/contracts/**"],
    ignores: ["**/*.int.test.ts", "packages/api/src/app.ts", "packages/api/src/handler.ts"],
    rules: { "no-restricted-imports": ["error", { paths: [{ name: "@board/db", message: "Transports call services; only services (and the app's wiring) use the database." }] }] },
  },
);
