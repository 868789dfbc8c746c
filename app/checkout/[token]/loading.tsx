import { LoadingState } from "@/components/ui/states";

export default function CheckoutLoading() {
  return (
    <main className="mx-auto max-w-2xl px-4 py-10">
      <LoadingState label="Loading your checkout…" />
    </main>
  );
}
