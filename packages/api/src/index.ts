export * from "./app";
export * from "./config";
export * from "./node-server";
export { INTERFACE_VERSION, buildOpenApiDocument } from "./openapi";
export type { AppRouter } from "./router";
export { appRouter } from "./router";
export type { AccessTokenVerifier, ApiContext } from "./trpc";
export { clientAddress } from "./http/client-address";
export { toFetchResponse, type GateRequest, type GateResponse, type HeaderReader } from "./http/exchange";
