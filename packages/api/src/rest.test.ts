import { expect, test } from "vitest";
import { createRestDispatcher } from "./rest";

test("the POST routes that take an empty body are those whose input needs nothing; every other body route answers an empty JSON body with INVALID_JSON", () => {
  const rest = createRestDispatcher();
  expect(rest.emptyBodyRoutes().sort()).toEqual([
    "POST /v1/me/revoke",
    "POST /v1/showcase/posts/{item_id}/withdraw",
    "POST /v1/showcase/revisions/{id}/preview-session",
    "POST /v1/showcase/uploads/{id}/commit",
  ]);
  expect(rest.needsBody("POST", "/v1/posts")).toBe(true);
  expect(rest.needsBody("POST", "/v1/posts/0f8e2b4c-5a1d-4c3e-9b7a-2d6f8e1c3a5b/replies")).toBe(true);
  expect(rest.needsBody("POST", "/v1/me/revoke")).toBe(false);
  expect(rest.needsBody("POST", "/nowhere")).toBe(false);
});
