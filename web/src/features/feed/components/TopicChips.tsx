import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useAppSelector } from '../../../app/hooks';
import { selectSettings } from '../../settings/selectors';
import { selectFeed } from '../selectors';
import { topicChips } from '../topicChips';
import { useTopicParam } from '../topicParam';

/** How far the chip row is scrolled from each end: a fade and an arrow button show on the side with more chips. */
function useOverflow(deps: unknown) {
  const list = useRef<HTMLUListElement>(null);
  const [more, setMore] = useState({ left: false, right: false });
  const measure = useCallback(() => {
    const el = list.current;
    if (!el) return;
    const left = el.scrollLeft > 1;
    const right = el.scrollLeft + el.clientWidth < el.scrollWidth - 1;
    setMore((prev) => (prev.left === left && prev.right === right ? prev : { left, right }));
  }, []);
  useEffect(() => {
    const el = list.current;
    if (!el) return;
    measure();
    // A mouse wheel (vertical) scrolls the row sideways while the row has somewhere to go.
    const onWheel = (event: WheelEvent) => {
      if (Math.abs(event.deltaY) <= Math.abs(event.deltaX) || el.scrollWidth <= el.clientWidth) return;
      const atEnd =
        event.deltaY > 0 ? el.scrollLeft + el.clientWidth >= el.scrollWidth - 1 : el.scrollLeft <= 0;
      if (atEnd) return;
      event.preventDefault();
      el.scrollLeft += event.deltaY;
    };
    el.addEventListener('scroll', measure, { passive: true });
    el.addEventListener('wheel', onWheel, { passive: false });
    window.addEventListener('resize', measure);
    return () => {
      el.removeEventListener('scroll', measure);
      el.removeEventListener('wheel', onWheel);
      window.removeEventListener('resize', measure);
    };
  }, [measure]);
  useEffect(measure, [deps, measure]);
  const scrollBy = (direction: -1 | 1) => {
    const el = list.current;
    if (el) el.scrollBy({ left: direction * el.clientWidth * 0.8, behavior: 'smooth' });
  };
  return { list, more, scrollBy };
}

/**
 * reader.md §2: All plus each topic, each with its count; choosing one reloads the list from page 1. A row wider
 * than the screen fades at the side with more chips, has arrow buttons there, and scrolls with a mouse wheel.
 */
export function TopicChips() {
  const { topics, topicCounts, totalPostsCount, topicId } = useAppSelector(selectFeed);
  const [, chooseTopic] = useTopicParam();
  const { postsingular, postplural } = useAppSelector(selectSettings);
  const chips = useMemo(
    () => topicChips(topics, topicCounts, totalPostsCount, topicId),
    [topics, topicCounts, totalPostsCount, topicId],
  );
  const countsKnown = totalPostsCount !== null || topicCounts.length > 0;
  const { list, more, scrollBy } = useOverflow(chips);
  return (
    <fieldset
      className={`feed-topics${more.left ? ' feed-topics--more-left' : ''}${more.right ? ' feed-topics--more-right' : ''}`}
    >
      <legend className="visually-hidden">Topics</legend>
      {more.left && (
        <button
          type="button"
          className="feed-topics__arrow feed-topics__arrow--left"
          aria-label="Scroll topics left"
          onClick={() => scrollBy(-1)}
        >
          ‹
        </button>
      )}
      <ul className="feed-topics__list" ref={list}>
        {chips.map((chip) => (
          <li key={chip.id || 'all'}>
            <input
              id={`feed-topic-${chip.id || 'all'}`}
              className="chip__input"
              type="radio"
              name="feed-topic"
              value={chip.id}
              checked={topicId === chip.id}
              onChange={() => chooseTopic(chip.id)}
            />
            <label htmlFor={`feed-topic-${chip.id || 'all'}`} className="chip feed-topics__chip">
              {chip.label}
              {countsKnown && (
                <span className="feed-topics__count">
                  <span className="visually-hidden">, </span>
                  {chip.count}
                  <span className="visually-hidden"> {chip.count === 1 ? postsingular : postplural}</span>
                </span>
              )}
            </label>
          </li>
        ))}
      </ul>
      {more.right && (
        <button
          type="button"
          className="feed-topics__arrow feed-topics__arrow--right"
          aria-label="Scroll topics right"
          onClick={() => scrollBy(1)}
        >
          ›
        </button>
      )}
    </fieldset>
  );
}
