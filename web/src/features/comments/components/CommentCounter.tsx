import { commentCounter } from '../commentRules';

/** The 'n/5000' counter under a comment box, red at the limit (reader.md §2, §5). */
export function CommentCounter({ length, id }: { length: number; id?: string }) {
  const counter = commentCounter(length);
  return (
    <span
      id={id}
      className={`comment-form__counter${counter.atLimit ? ' comment-form__counter--limit' : ''}`}
    >
      {counter.text}
    </span>
  );
}
