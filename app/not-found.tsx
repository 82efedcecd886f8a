import Link from "next/link";

export default function NotFound() {
  return (
    <div className="mx-auto max-w-xl px-4 py-16 text-center sm:px-6">
      <p className="font-mono text-sm text-slate-700">404</p>
      <h1 className="mt-2 text-3xl font-bold text-slate-950">Page not found</h1>
      <p className="mt-3 text-slate-800">There is no page at this address.</p>
      <div className="mt-6 flex flex-wrap justify-center gap-3">
        <Link href="/" className="btn-primary">
          Home
        </Link>
        <Link href="/docs" className="btn-secondary">
          API reference
        </Link>
      </div>
    </div>
  );
}
