import { Brand } from "@/components/brand";
import { EmptyState } from "@/components/ui/states";

export default function CheckoutNotFound() {
  return (
    <main className="mx-auto max-w-2xl px-4 py-10">
      <Brand suffix="Checkout" />
      <div className="mt-8">
        <EmptyState title="Checkout not found">
          This link does not open a checkout. Check that you copied the whole link, or ask the shop for a new one.
        </EmptyState>
      </div>
    </main>
  );
}
