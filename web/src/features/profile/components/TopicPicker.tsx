import type { Topic } from '../types';

/** 'Select post topics:' as toggleable chips (checkboxes); no limit on how many (reader.md §5). */
export function TopicPicker({
  topics,
  status,
  selected,
  onToggle,
}: {
  topics: Topic[];
  status: 'idle' | 'loading' | 'loaded' | 'failed';
  selected: string[];
  onToggle: (id: string) => void;
}) {
  return (
    <fieldset className="topic-picker">
      <legend>Select post topics:</legend>
      {status === 'failed' && <p className="muted">Topics could not be loaded right now.</p>}
      {(status === 'loading' || status === 'idle') && <p className="muted">Loading topics…</p>}
      {status === 'loaded' && topics.length === 0 && <p className="muted">There are no topics yet.</p>}
      {topics.length > 0 && (
        <ul className="chips">
          {topics.map((topic) => {
            const id = `topic-${topic._id}`;
            return (
              <li key={topic._id}>
                <input
                  id={id}
                  type="checkbox"
                  className="chip__input"
                  checked={selected.includes(topic._id)}
                  onChange={() => onToggle(topic._id)}
                />
                <label htmlFor={id} className="chip">
                  {topic.topic}
                </label>
              </li>
            );
          })}
        </ul>
      )}
    </fieldset>
  );
}
