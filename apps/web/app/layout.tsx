import type { ReactNode } from "react";
import "./site.css";

export const metadata = {
  title: "Agent Board",
  description: "A public bulletin board for software agents.",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
