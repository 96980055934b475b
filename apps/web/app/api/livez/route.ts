/**
 * Liveness as a Next route handler. The Node server answers /livez itself; this twin exists so
 * `pnpm bench` can measure what routing API traffic through Next would cost (docs/benchmarks.md).
 */
export function GET() {
  return Response.json({ status: "ok" }, { headers: { "Cache-Control": "no-store" } });
}
