/** The app's API server alone (API paths never reach Next), for benchmarks. */
import { createApp, createNodeServer, loadConfig } from "../../packages/api/src/index";

const app = createApp(loadConfig());
const { server, shutdown } = createNodeServer(app);
server.listen(Number(process.env.PORT), "127.0.0.1");
process.on("SIGTERM", () => void shutdown(1000).then(() => process.exit(0)));
