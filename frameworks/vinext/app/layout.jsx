// The root layout the App Router requires: the document around every page. Each
// page renders its own <title> (React hoists it into this <head>; React
// escapes it like any text).

export default function RootLayout({ children }) {
  return (
    <html>
      <head />
      <body>{children}</body>
    </html>
  );
}
