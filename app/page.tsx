export default function Home() {
  return (
    <main className="mx-auto max-w-3xl p-8">
      <h1 className="text-3xl font-bold">Lugha</h1>
      <p className="mt-2">Translation and speech for African languages. The developer portal is being built.</p>
    </main>
  );
}
