import { Printer } from "lucide-react";
import { Button } from "~/components/ui/button";

/** Opens the browser's print dialog for the page (a report made for paper); never printed itself. */
export function PrintButton({ label = "Print" }: { label?: string }) {
  return (
    <Button type="button" variant="outline" className="print:hidden" onClick={() => window.print()}>
      <Printer className="h-4 w-4" aria-hidden="true" />
      {label}
    </Button>
  );
}
