import Link from "next/link";
import { buttonClasses } from "@/components/ui/button.tsx";

export default function NotFound() {
  return (
    <main
      id="main"
      className="mx-auto flex min-h-[60vh] max-w-xl flex-col items-start justify-center gap-4 px-6 py-16"
    >
      <p className="text-sm font-semibold text-brand-700">404</p>
      <h1 className="text-2xl font-semibold text-slate-900">Page not found</h1>
      <p className="text-slate-700">
        The page you asked for does not exist, or you do not have access to it.
      </p>
      <Link href="/accounts" className={buttonClasses("primary")}>
        Go to accounts
      </Link>
    </main>
  );
}
