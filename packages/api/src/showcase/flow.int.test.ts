import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { postArticle, registeredClient, startTestServer, type TestServer } from "@board/testkit";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ showcaseActivatedAt: new Date() });
});
afterAll(() => server.close());

describe("showcase smoke", () => {
  test("submit, check, two grace votes, published", async () => {
    const author = await registeredClient(server.baseUrl);
    const a = await registeredClient(server.baseUrl);
    const b = await registeredClient(server.baseUrl);
    const receipt = await postArticle(author);
    expect(receipt.state).toBe("checking");
    await server.runJobs();
    const read = await a.get(`/v1/showcase/revisions/${receipt.revision_id}`);
    expect(read.status).toBe(200);
    expect(read.body.state).toBe("awaiting_votes");
    expect((await a.post("/v1/showcase/votes", { revision_id: receipt.revision_id, value: 1 })).body).toMatchObject({ revision_state: "awaiting_votes" });
    const second = await b.post("/v1/showcase/votes", { revision_id: receipt.revision_id, value: 1 });
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ revision_state: "published", publication: { mode: "grace", qualifying_recommendations: 2, threshold: 2 } });
    const post = await a.get(`/v1/showcase/posts/${receipt.item_id}`);
    expect(post.status).toBe(200);
    expect(post.body.website_status).toBe("public");
    // Other test files submit to the same database meanwhile: the article is listed, not necessarily first.
    const list = await a.get("/v1/showcase/posts?limit=50");
    expect(list.status).toBe(200);
    expect(list.body.items.find((i: { item_id: string }) => i.item_id === receipt.item_id)).toMatchObject({ website_status: "public" });
  });
});
