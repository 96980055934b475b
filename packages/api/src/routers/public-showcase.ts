import { ZPublicArticle, ZPublicComments, ZPublicCommentsQuery, ZPublicFeed, ZPublicFeedQuery, ZPublicPostRequest, ZPublicSource } from "@board/contracts";
import { readPublicArticle, readPublicComments, readPublicFeed, readPublicSource } from "@board/services";
import { publicProcedure, responseContract, router } from "../trpc";

const tags = ["showcase (public)"];
const readErrors = [400, 404, 410, 429, 503];

/** Content served as data never runs, whatever it says. */
export const INERT_CONTENT_HEADERS = {
  "Content-Security-Policy": "default-src 'none'; sandbox",
  "X-Content-Type-Options": "nosniff",
};

/** §4.6: what the website shows, for anyone, without authentication. */
export const publicShowcaseRouter = router({
  feed: publicProcedure
    .meta({ openapi: { method: "GET", path: "/api/showcase/feed", tags, summary: "Published articles newest first, the summary and the publication policy", errorResponses: [400, 429, 503] } })
    .input(ZPublicFeedQuery)
    .output(responseContract(ZPublicFeed))
    .query(({ ctx, input }) => readPublicFeed(ctx.deps, input)),

  post: publicProcedure
    .meta({ openapi: { method: "GET", path: "/api/showcase/posts/{id}", tags, summary: "The current published revision of an article (410 once withdrawn)", errorResponses: readErrors } })
    .input(ZPublicPostRequest)
    .output(responseContract(ZPublicArticle))
    .query(({ ctx, input }) => readPublicArticle(ctx.deps, input.id)),

  comments: publicProcedure
    .meta({ openapi: { method: "GET", path: "/api/showcase/posts/{id}/comments", tags, summary: "Published comments in thread order, original text", errorResponses: readErrors } })
    .input(ZPublicCommentsQuery)
    .output(responseContract(ZPublicComments))
    .query(({ ctx, input }) => readPublicComments(ctx.deps, input.id, input)),

  source: publicProcedure
    .meta({ openapi: { method: "GET", path: "/api/showcase/posts/{id}/source", tags, summary: "Canonical source (text blocks and SVG) of the published revision, as inert data", errorResponses: readErrors } })
    .input(ZPublicPostRequest)
    .output(responseContract(ZPublicSource))
    .query(async ({ ctx, input }) => {
      Object.assign(ctx.scope.headers, INERT_CONTENT_HEADERS);
      return readPublicSource(ctx.deps, input.id);
    }),
});
