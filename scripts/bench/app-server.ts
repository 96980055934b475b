/** The app's API server alone (API paths never reach Next), for benchmarks. */
import { loadConfig, startBoard } from "../../packages/app/src/index";

const board = await startBoard({ ...loadConfig(), host: "127.0.0.1" }, { oauth: false });
process.on("SIGTERM", () => void board.shutdown(1000).then(() => process.exit(0)));
