import path from "node:path";
import tseslint from "typescript-eslint";

/**
 * Which workspace packages each package may import: dependencies point down only
 * (domain <- contracts <- services <- {api, mcp, oauth} <- app <- web), and only services, the
 * composition root and test fixtures touch @board/db. Tests may also use the test kit and db.
 */
const layers = {
  "packages/domain": [],
  "packages/svg-runtime": [],
  "packages/contracts": ["domain"],
  "packages/db": ["domain"],
  "packages/services": ["domain", "contracts", "db", "svg-runtime"],
  "packages/api": ["domain", "contracts", "services"],
  "packages/mcp": ["domain", "contracts", "services"],
  "packages/oauth": ["domain", "contracts", "services"],
  "packages/app": ["domain", "contracts", "db", "services", "api", "mcp", "oauth"],
  "packages/testkit": ["domain", "contracts", "db", "services", "api", "mcp", "oauth", "app"],
  "apps/web": ["app", "contracts", "domain", "services", "svg-runtime"],
};
const allPackages = ["domain", "svg-runtime", "contracts", "db", "services", "api", "mcp", "oauth", "app", "testkit", "web"];
const testFiles = ["**/*.test.ts", "**/*.int.test.ts"];

function forbiddenImports(allowed) {
  return allPackages
    .filter((name) => !allowed.includes(name))
    .map((name) => ({ group: [`@board/${name}`, `@board/${name}/*`], message: `This package may import only ${allowed.map((a) => `@board/${a}`).join(", ") || "no other board package"} (eslint.config.js: layers).` }));
}

/** A relative import that climbs out of its own package reaches around the dependency graph. */
const noRelativeEscape = {
  meta: { type: "problem", schema: [], messages: { escape: "'{{source}}' leaves {{root}}; import the other package by its name, or move the code into this one." } },
  create(context) {
    const file = context.filename;
    const root = Object.keys(layers).map((dir) => path.resolve(dir)).find((dir) => file.startsWith(dir + path.sep));
    if (!root) return {};
    const check = (node) => {
      const source = node.source?.value;
      if (typeof source !== "string" || !source.startsWith(".")) return;
      const target = path.resolve(path.dirname(file), source);
      if (target !== root && !target.startsWith(root + path.sep)) context.report({ node, messageId: "escape", data: { source, root: path.relative(process.cwd(), root) } });
    };
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check, ImportExpression: check };
  },
};

export default tseslint.config(
  { ignores: ["**/node_modules/**", "**/.next/**", "**/generated/**", "**/dist/**", "**/builds/**", "data/**", ".tools/**"] },
  ...tseslint.configs.recommended,
  {
    plugins: { board: { rules: { "no-relative-escape": noRelativeEscape } } },
    rules: {
      "@typescript-eslint/no-explicit-any": "off",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "no-restricted-imports": ["error", { paths: [{ name: "@prisma/client", message: "Only packages/db may import Prisma." }] }],
      "board/no-relative-escape": "error",
    },
  },
  ...Object.entries(layers).flatMap(([dir, allowed]) => [
    {
      files: [`${dir}/**/*.{ts,tsx,js,mjs}`],
      ignores: testFiles,
      rules: { "no-restricted-imports": ["error", { paths: [{ name: "@prisma/client", message: "Only packages/db may import Prisma." }], patterns: forbiddenImports(allowed) }] },
    },
    {
      files: testFiles.map((pattern) => `${dir}/${pattern}`),
      rules: { "no-restricted-imports": ["error", { patterns: forbiddenImports([...new Set([...allowed, "db", "testkit", "app", "svg-runtime"])].filter((name) => `packages/${name}` !== dir)) }] },
    },
  ]),
  {
    files: ["packages/domain/**"],
    rules: { "no-restricted-imports": ["error", { patterns: [{ group: ["@board/*", "@prisma/*", "pg"], message: "domain is pure: no I/O and no other board package." }] }] },
  },
);
