import type { LevelPanelTexts } from '../../progress/levels';

/** The content of the 'Your Progress' panel (reader.md §2 levels widget), from levelTexts(...). */
export function ProgressPanel({ texts, titleId }: { texts: LevelPanelTexts; titleId: string }) {
  if (texts.kind === 'empty')
    return (
      <>
        <h2 id={titleId} className="levels-panel__title">
          Your Progress
        </h2>
        <p className="levels-panel__empty">{texts.message}</p>
      </>
    );
  return (
    <>
      <h2 id={titleId} className="levels-panel__title">
        {texts.title}
      </h2>
      <p className="levels-panel__count">
        <span className="levels-panel__count-label">{texts.currentCountLabel}</span>
        <span className="levels-panel__count-value">{texts.currentCount}</span>
      </p>
      <div
        className="levels-panel__bar"
        role="progressbar"
        aria-label={texts.nextLevelTitle ? `Progress to ${texts.nextLevelTitle} Level` : 'Progress'}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={texts.percent}
      >
        <span className="levels-panel__fill" style={{ width: `${texts.percent}%` }} />
      </div>
      <p className="levels-panel__message">{texts.message}</p>
      <div className="levels-panel__badges">
        <div className="level-badge level-badge--current">
          <span className="level-badge__label">{texts.currentLevelLabel}</span>
          <span className="level-badge__title">{texts.currentLevelTitle}</span>
        </div>
        {texts.nextLevelLabel && texts.nextLevelTitle && (
          <div className="level-badge level-badge--next">
            <span className="level-badge__label">{texts.nextLevelLabel}</span>
            <span className="level-badge__title">{texts.nextLevelTitle}</span>
          </div>
        )}
      </div>
    </>
  );
}
