export default function HomePage() {
  return (
    <main className="mx-auto max-w-2xl p-8">
      <h1 className="text-2xl font-semibold">Toolgate</h1>
      <p className="text-muted-foreground">An AI agent that acts only through hardened tools.</p>
    </main>
  );
}
