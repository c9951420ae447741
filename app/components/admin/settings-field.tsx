import type { ComponentProps } from "react";
import { Input, Label, Textarea } from "~/components/ui/input";

type FieldProps = {
  name: string;
  label: string;
  error?: string;
  hint?: string;
  required?: boolean;
};

function Message({ id, error, hint }: { id: string; error?: string; hint?: string }) {
  if (error) {
    return (
      <p id={id} className="text-sm text-red-700">
        {error}
      </p>
    );
  }
  return hint ? (
    <p id={id} className="text-sm text-slate-600">
      {hint}
    </p>
  ) : null;
}

/** A labelled settings input with its error (or hint) announced through aria-describedby. */
export function SettingsInput({ name, label, error, hint, required, ...props }: FieldProps & Omit<ComponentProps<"input">, "name">) {
  const id = `settings-${name}`;
  const describedBy = error || hint ? `${id}-message` : undefined;
  return (
    <div className="space-y-1.5">
      <Label htmlFor={id}>
        {label}
        {required ? " *" : ""}
      </Label>
      <Input id={id} name={name} aria-invalid={error ? true : undefined} aria-describedby={describedBy} aria-required={required || undefined} {...props} />
      <Message id={`${id}-message`} error={error} hint={hint} />
    </div>
  );
}

export function SettingsTextarea({ name, label, error, hint, ...props }: FieldProps & Omit<ComponentProps<"textarea">, "name">) {
  const id = `settings-${name}`;
  const describedBy = error || hint ? `${id}-message` : undefined;
  return (
    <div className="space-y-1.5">
      <Label htmlFor={id}>{label}</Label>
      <Textarea id={id} name={name} aria-invalid={error ? true : undefined} aria-describedby={describedBy} {...props} />
      <Message id={`${id}-message`} error={error} hint={hint} />
    </div>
  );
}
