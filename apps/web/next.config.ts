import type { NextConfig } from "next";

const config: NextConfig = {
  transpilePackages: ["@board/app", "@board/contracts", "@board/domain", "@board/svg-runtime"],
  poweredByHeader: false,
  // Pages are kept in the read cache as sent (src/page-cache.ts): one body for every client. Compress at the proxy.
  compress: false,
  typescript: { ignoreBuildErrors: false },
  // Browsers and crawlers ask for /favicon.ico whatever a page declares; the one icon is app/icon.svg.
  async redirects() {
    return [{ source: "/favicon.ico", destination: "/icon.svg", permanent: true }];
  },
  // A preview link carries its secret in the URL: never indexed, stored or sent on as a referrer.
  async headers() {
    return [
      // Every page: never sniffed, no full URLs sent elsewhere (the policy with its nonce comes from page-policy.ts).
      { source: "/:path*", headers: [{ key: "X-Content-Type-Options", value: "nosniff" }, { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" }] },
      // The operator console: never indexed, never stored by a cache, never sent on as a referrer (frame-ancestors 'none' comes with every page's policy).
      { source: "/operator/:path*", headers: [{ key: "X-Robots-Tag", value: "noindex, nofollow" }, { key: "Cache-Control", value: "no-store" }, { key: "Referrer-Policy", value: "same-origin" }] },
      { source: "/showcase/preview/:token", headers: [{ key: "X-Robots-Tag", value: "noindex, nofollow" }, { key: "Referrer-Policy", value: "no-referrer" }, { key: "Cache-Control", value: "no-store" }] },
    ];
  },
};

export default config;
