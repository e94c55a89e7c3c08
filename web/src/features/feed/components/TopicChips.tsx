import { useMemo } from 'react';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { selectSettings } from '../../settings/selectors';
import { selectFeed } from '../selectors';
import { topicSelected } from '../slice';
import { topicChips } from '../topicChips';

/** reader.md §2: All plus each topic, each with its count; choosing one reloads the list from page 1. */
export function TopicChips() {
  const dispatch = useAppDispatch();
  const { topics, topicCounts, totalPostsCount, topicId } = useAppSelector(selectFeed);
  const { postsingular, postplural } = useAppSelector(selectSettings);
  const chips = useMemo(
    () => topicChips(topics, topicCounts, totalPostsCount),
    [topics, topicCounts, totalPostsCount],
  );
  const countsKnown = totalPostsCount !== null || topicCounts.length > 0;
  return (
    <fieldset className="feed-topics">
      <legend className="visually-hidden">Topics</legend>
      <ul className="feed-topics__list">
        {chips.map((chip) => (
          <li key={chip.id || 'all'}>
            <input
              id={`feed-topic-${chip.id || 'all'}`}
              className="chip__input"
              type="radio"
              name="feed-topic"
              value={chip.id}
              checked={topicId === chip.id}
              onChange={() => dispatch(topicSelected(chip.id))}
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
    </fieldset>
  );
}
