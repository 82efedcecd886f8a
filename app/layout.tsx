import type { Metadata } from "next";
import "./globals.css";

export const metadata: Metadata = {
  title: "Lugha — translation and speech for African languages",
  description: "One API for Luganda, Twi, Yoruba, Swahili and more: translation, speech-to-text and text-to-speech.",
};

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-screen bg-white text-slate-900 antialiased">{children}</body>
    </html>
  );
}
