import type { NextConfig } from "next";

const config: NextConfig = {
  transpilePackages: ["@board/app", "@board/contracts", "@board/domain", "@board/svg-runtime"],
  poweredByHeader: false,
  // Pages are kept in the read cache as sent (page-cache.ts): one body for every client. Compress at the proxy.
  compress: false,
  typescript: { ignoreBuildErrors: false },
};

export default config;
