import type { NextConfig } from "next";

const config: NextConfig = {
  transpilePackages: ["@board/app", "@board/contracts", "@board/domain", "@board/svg-runtime"],
  poweredByHeader: false,
  typescript: { ignoreBuildErrors: false },
};

export default config;
