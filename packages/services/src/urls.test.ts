import { describe, expect, it } from "vitest";
import { serviceUrl } from "./urls";

/** What URL resolution answers: serviceUrl's direct join must never differ from it. */
const resolved = (publicUrl: string, path: string) => new URL(path, publicUrl.endsWith("/") ? publicUrl : `${publicUrl}/`).toString();

describe("serviceUrl", () => {
  const publicUrls = ["http://127.0.0.1:3000", "https://Board.Example.com/", "https://board.example.com:443/prefix/", "http://[::1]:8080/a/b"];
  const paths = [
    "/v1/showcase/revisions/0d9c4f6e-1f7a-4c1e-9a52-2d6f0f3b1c11",
    "/docs/errors#DAILY_LIMIT",
    "/docs/svg-runtime",
    "/v1/inbox/",
    "/v1/me/publications/lookup?request_id=abc%20d",
    "/api/showcase/posts/../secret",
    "/a/./b",
    "/a b",
    "/é",
    "/v1/file.name.json",
  ];
  for (const publicUrl of publicUrls) {
    it.each(paths)(`joins %s to ${publicUrl} as URL resolution does`, (path) => {
      expect(serviceUrl(publicUrl, path)).toBe(resolved(publicUrl, path));
    });
  }

  it("answers the origin's path, not the public URL's own path, for an absolute path", () => {
    expect(serviceUrl("https://board.example.com/prefix/", "/v1/rules")).toBe("https://board.example.com/v1/rules");
  });
});
