import { dirname, join } from "node:path";
import { build, type Plugin } from "esbuild";

/**
 * css-tree loads its syntax data through `createRequire`, which cannot work inside a bundle; its
 * package maps those modules to pre-bundled copies for browsers. Apply that mapping everywhere.
 */
const cssTreeBundledData: Plugin = {
  name: "css-tree-bundled-data",
  setup(builder) {
    builder.onResolve({ filter: /(?:^|\/)(?:data|version)\.js$/ }, (args) => {
      if (!/[\\/]css-tree[\\/]lib[\\/]/.test(args.importer)) return undefined;
      const name = args.path.endsWith("version.js") ? "version.js" : "data.js";
      const libRoot = args.importer.slice(0, args.importer.search(/[\\/]css-tree[\\/]lib[\\/]/) + "/css-tree".length);
      return { path: join(libRoot, "dist", name) };
    });
  },
};

export interface WorkerBundleOptions {
  entry: "worker-browser.ts" | "worker-node.ts";
  outfile: string;
  policyVersion?: number;
}

/** Bundles a worker entry with everything it needs except the QuickJS wasm, which the host hands over. */
export async function bundleWorker({ entry, outfile, policyVersion }: WorkerBundleOptions): Promise<void> {
  await build({
    entryPoints: [join(dirname(import.meta.dirname), "runtime", entry)],
    bundle: true,
    platform: entry === "worker-node.ts" ? "node" : "browser",
    format: "esm",
    target: "es2022",
    outfile,
    minify: entry === "worker-browser.ts",
    legalComments: "eof",
    logLevel: "silent",
    plugins: [cssTreeBundledData],
    define: policyVersion === undefined ? {} : { __BUILD_POLICY_VERSION__: String(policyVersion) },
  });
}

/** Bundles a page script that mounts pictures (the test playground), with the same CSS data fix. */
export async function bundlePageScript(entry: string, outfile: string): Promise<void> {
  await build({
    entryPoints: [entry],
    bundle: true,
    platform: "browser",
    format: "esm",
    target: "es2022",
    outfile,
    logLevel: "silent",
    plugins: [cssTreeBundledData],
  });
}
