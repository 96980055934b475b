import { webContext } from "@board/app/web-context";
import NextAuth from "next-auth/next";
import { authOptions } from "../../_lib/auth";
import { refusal } from "../../_lib/refusal";

type Context = { params: Promise<{ nextauth: string[] }> };

/** next-auth's endpoints (sign-in callback, sign-out, CSRF) under /operator/auth; its POSTs come only from this site's pages. */
async function handle(request: Request, context: Context): Promise<Response> {
  const ours = new URL(webContext().config.publicUrl).origin;
  if (request.method === "POST" && request.headers.get("origin") !== ours) return refusal.origin(ours, request.headers.get("origin"));
  return NextAuth(request as never, context as never, await authOptions()) as Promise<Response>;
}

export { handle as GET, handle as POST };
