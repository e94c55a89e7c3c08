/** An on/off toggle: a checkbox with the switch role, labelled by its text. */
export function Switch({
  id,
  label,
  checked,
  onChange,
  describedBy,
}: {
  id: string;
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  describedBy?: string;
}) {
  return (
    <div className="switch">
      <input
        id={id}
        type="checkbox"
        role="switch"
        className="switch__input"
        checked={checked}
        aria-checked={checked}
        aria-describedby={describedBy}
        onChange={(event) => onChange(event.target.checked)}
      />
      <label htmlFor={id} className="switch__label">
        <span className="switch__track" aria-hidden="true">
          <span className="switch__thumb" />
        </span>
        {label}
      </label>
    </div>
  );
}
