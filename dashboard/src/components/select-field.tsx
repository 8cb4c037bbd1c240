// A labelled <select> of plain values (the value is the text shown, unless `labels` names it).
interface Props<T extends string> {
  id: string;
  label: string;
  value: T;
  values: readonly T[];
  labels?: Partial<Record<T, string>>;
  onChange: (value: T) => void;
}

export function SelectField<T extends string>({ id, label, value, values, labels, onChange }: Props<T>) {
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => onChange(e.currentTarget.value as T)}>
        {values.map((v) => (
          <option key={v} value={v}>
            {labels?.[v] ?? v}
          </option>
        ))}
      </select>
    </div>
  );
}
