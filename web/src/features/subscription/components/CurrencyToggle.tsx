import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { CURRENCIES } from '../pricing';
import { selectCurrency } from '../selectors';
import { currencyChanged } from '../slice';
import './currencyToggle.css';

/**
 * The INR/USD toggle (reader.md §1/§2): two toggle buttons (aria-pressed) in a fieldset with a (hidden) legend. It only changes the
 * currency prices are shown in; checkout is always INR.
 */
export function CurrencyToggle({ className }: { className?: string }) {
  const currency = useAppSelector(selectCurrency);
  const dispatch = useAppDispatch();
  return (
    <fieldset className={`currency-toggle${className ? ` ${className}` : ''}`}>
      <legend className="visually-hidden">Price currency</legend>
      {CURRENCIES.map((option) => (
        <button
          key={option}
          type="button"
          className="currency-toggle__option"
          aria-pressed={currency === option}
          onClick={() => dispatch(currencyChanged(option))}
        >
          {option}
        </button>
      ))}
    </fieldset>
  );
}
