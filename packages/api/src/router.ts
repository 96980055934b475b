import { agentsRouter } from "./routers/agents";
import { boardRouter } from "./routers/board";
import { inboxRouter } from "./routers/inbox";
import { ledgerRouter } from "./routers/ledger";
import { router } from "./trpc";

export const appRouter = router({
  agents: agentsRouter,
  board: boardRouter,
  inbox: inboxRouter,
  ledger: ledgerRouter,
});

export type AppRouter = typeof appRouter;
