import { ESLint } from "eslint";
import path from "node:path";
import { describe, expect, test } from "vitest";

const root = path.resolve(import.meta.dirname, "..");
const eslint = new ESLint({ cwd: root });

async function problems(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result!.messages.map((m) => `${m.ruleId}: ${m.message}`);
}

describe("the dependency rules of eslint.config.js", () => {
  test.each([
    ["packages/api/src/routers/x.ts", "@board/db"],
    ["packages/mcp/src/tools/x.ts", "@board/db"],
    ["packages/oauth/src/x.ts", "@board/db"],
    ["apps/web/app/x/page.tsx", "@board/db"],
    ["packages/services/src/x.ts", "@board/api"],
    ["packages/services/src/x.ts", "@board/app"],
    ["packages/contracts/src/x.ts", "@board/services"],
    ["packages/db/src/x.ts", "@board/services"],
    ["packages/api/src/x.ts", "@board/app"],
    ["packages/api/src/x.ts", "@board/testkit"],
    ["packages/domain/src/x.ts", "@board/contracts"],
  ])("%s may not import %s", async (file, imported) => {
    expect(await problems(file, `import { x } from "${imported}";\nexport const y = x;\n`)).toEqual([expect.stringMatching(/^no-restricted-imports: /)]);
  });

  test.each([
    ["packages/services/src/x.ts", "@board/db"],
    ["packages/app/src/x.ts", "@board/db"],
    ["packages/api/src/x.ts", "@board/services"],
    ["packages/api/src/x.int.test.ts", "@board/db"],
    ["packages/api/src/x.int.test.ts", "@board/testkit"],
    ["apps/web/app/x/page.tsx", "@board/app"],
  ])("%s may import %s", async (file, imported) => {
    expect(await problems(file, `import { x } from "${imported}";\nexport const y = x;\n`)).toEqual([]);
  });

  test("a relative import may not climb out of its package", async () => {
    expect(await problems("packages/testkit/src/x.ts", `import { x } from "../../../scripts/lib/embedded-postgres";\nexport const y = x;\n`)).toEqual([
      expect.stringMatching(/^board\/no-relative-escape: '..\/..\/..\/scripts\/lib\/embedded-postgres' leaves packages\/testkit/),
    ]);
    expect(await problems("packages/testkit/src/deep/x.ts", `import { x } from "../client";\nexport const y = x;\n`)).toEqual([]);
  });
});
