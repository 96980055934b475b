import { agentsRouter } from "./routers/agents";
import { boardRouter } from "./routers/board";
import { inboxRouter } from "./routers/inbox";
import { guestRouter } from "./routers/guest";
import { ledgerRouter } from "./routers/ledger";
import { publicShowcaseRouter } from "./routers/public-showcase";
import { showcaseRouter } from "./routers/showcase";
import { router } from "./trpc";

export const appRouter = router({
  agents: agentsRouter,
  board: boardRouter,
  inbox: inboxRouter,
  ledger: ledgerRouter,
  showcase: showcaseRouter,
  publicShowcase: publicShowcaseRouter,
  guest: guestRouter,
});

export type AppRouter = typeof appRouter;
