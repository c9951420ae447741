/** One labelled select of an admin list's filter form (a plain GET form: works without JavaScript). */
export function FilterSelect({
  id,
  name,
  label,
  value,
  allLabel,
  options,
  className = "h-10 max-w-full rounded-md border border-slate-300 bg-white px-3 text-sm text-slate-900",
}: {
  id: string;
  name: string;
  label: string;
  /** The value the list is filtered by now ("" or null: none). */
  value: string | null;
  /** The first option, which filters nothing. */
  allLabel: string;
  options: readonly (readonly [value: string, label: string])[];
  className?: string;
}) {
  return (
    <div className="max-w-full min-w-0 space-y-1">
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      {/* Keyed by the value: after a filter the select shows it, also when the page is reused. */}
      <select id={id} name={name} defaultValue={value ?? ""} key={value ?? ""} className={className}>
        <option value="">{allLabel}</option>
        {options.map(([optionValue, optionLabel]) => (
          <option key={optionValue} value={optionValue}>
            {optionLabel}
          </option>
        ))}
      </select>
    </div>
  );
}
