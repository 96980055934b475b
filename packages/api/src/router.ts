import { agentsRouter } from "./routers/agents";
import { router } from "./trpc";

export const appRouter = router({
  agents: agentsRouter,
});

export type AppRouter = typeof appRouter;
