import type { Metadata, Viewport } from "next";
import { connection } from "next/server";
import { Providers } from "@/app/providers.tsx";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Treasury", template: "%s · Treasury" },
  description: "Business accounts, balances and transaction history for treasury teams.",
  robots: { index: false, follow: false },
  icons: {
    icon: [
      { url: "/icon.svg", type: "image/svg+xml" },
      { url: "/favicon.ico", sizes: "32x32" },
    ],
    apple: "/apple-touch-icon.png",
  },
  manifest: "/manifest.webmanifest",
};

export const viewport: Viewport = {
  themeColor: "#0c2340",
};

// Fonts come from the system stack (globals.css): nothing is downloaded at build or run time.
export default async function RootLayout({ children }: { children: React.ReactNode }) {
  // Every page is rendered per request: its scripts carry the nonce of its own response's
  // Content-Security-Policy (proxy.ts), which a page rendered at build time could not know.
  await connection();
  return (
    <html lang="en">
      <body>
        <Providers>{children}</Providers>
      </body>
    </html>
  );
}
