import { agentsRouter } from "./routers/agents";
import { boardRouter } from "./routers/board";
import { inboxRouter } from "./routers/inbox";
import { router } from "./trpc";

export const appRouter = router({
  agents: agentsRouter,
  board: boardRouter,
  inbox: inboxRouter,
});

export type AppRouter = typeof appRouter;
