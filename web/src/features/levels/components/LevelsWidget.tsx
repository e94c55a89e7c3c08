import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useAppSelector } from '../../../app/hooks';
import { selectHistory } from '../../history/selectors';
import { totalRead } from '../../progress/history';
import { levelProgress, levelTexts } from '../../progress/levels';
import { selectSettings } from '../../settings/selectors';
import { postWording, widgetLabel, widgetSummary } from '../widget';
import { ProgressPanel } from './ProgressPanel';
import '../levels.css';

function TrophyIcon() {
  return (
    <svg width="20" height="20" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path
        fill="currentColor"
        d="M19 4h-2V3H7v1H5a2 2 0 0 0-2 2v1a4 4 0 0 0 3.6 4A5 5 0 0 0 11 14.9V18H8v2h8v-2h-3v-3.1A5 5 0 0 0 17.4 11 4 4 0 0 0 21 7V6a2 2 0 0 0-2-2ZM5 7V6h2v3a2 2 0 0 1-2-2Zm14 0a2 2 0 0 1-2 2V6h2Z"
      />
    </svg>
  );
}

/**
 * The levels widget (signed-in readers): the current level and a small bar; a click opens the 'Your Progress'
 * panel (a modal dialog: Escape, the Close button or a click outside closes it). Levels come from the settings,
 * the read total from the reading history.
 */
export function LevelsWidget() {
  const settings = useAppSelector(selectSettings);
  const history = useAppSelector(selectHistory);
  const [open, setOpen] = useState(false);
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();

  const texts = useMemo(
    () => levelTexts(levelProgress(settings.levels, totalRead(history)), postWording(settings)),
    [settings, history],
  );
  const summary = widgetSummary(texts);

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) element.showModal();
    if (!open && element.open) element.close();
  }, [open]);

  // A click on the backdrop (the dialog element itself, outside its content box) closes it; keyboard users
  // have Escape and the Close button.
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    const onClick = (event: MouseEvent) => {
      if (event.target === element) setOpen(false);
    };
    element.addEventListener('click', onClick);
    return () => element.removeEventListener('click', onClick);
  }, []);

  return (
    <>
      <button
        type="button"
        className="levels-widget"
        aria-haspopup="dialog"
        aria-label={widgetLabel(texts)}
        onClick={() => setOpen(true)}
      >
        <TrophyIcon />
        <span className="levels-widget__text">
          <span className="levels-widget__title">{summary.title}</span>
          {summary.percent !== null && (
            <span className="levels-widget__bar" aria-hidden="true">
              <span className="levels-widget__fill" style={{ width: `${summary.percent}%` }} />
            </span>
          )}
        </span>
      </button>
      <dialog ref={dialog} className="levels-panel" aria-labelledby={titleId} onClose={() => setOpen(false)}>
        <div className="levels-panel__content">
          <ProgressPanel texts={texts} titleId={titleId} />
          <button
            type="button"
            className="button button--block levels-panel__close"
            onClick={() => setOpen(false)}
          >
            Close
          </button>
        </div>
      </dialog>
    </>
  );
}
