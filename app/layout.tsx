import type { Metadata, Viewport } from "next";
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
export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <body>
        <Providers>{children}</Providers>
      </body>
    </html>
  );
}
