// The root layout Next.js requires: the document around every page (only
// /fortunes here). React escapes the title like any text.

export default function RootLayout({ children }) {
  return (
    <html>
      <head>
        <title>Fortunes</title>
      </head>
      <body>{children}</body>
    </html>
  );
}
