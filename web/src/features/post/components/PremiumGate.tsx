import { Link } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { selectSettings } from '../../settings/selectors';
import { signInModalOpened } from '../../signin-modal/slice';
import { LOGIN_TO_READ, type PostGate, UPGRADE_TO_READ } from '../postRules';

/** reader.md §2 'Premium gating texts', in place of a body the server did not send. */
export function PremiumGate({ gate, postId }: { gate: Exclude<PostGate, 'open'>; postId: string }) {
  const dispatch = useAppDispatch();
  const settings = useAppSelector(selectSettings);
  return (
    <div className="post-gate">
      {gate === 'login' && (
        <>
          <p>{LOGIN_TO_READ}</p>
          <button type="button" className="button" onClick={() => dispatch(signInModalOpened('read'))}>
            {settings.authmodalsigninbutton}
          </button>
        </>
      )}
      {gate === 'upgrade' && (
        <>
          <p>{UPGRADE_TO_READ}</p>
          {/* The checkout remembers this post, so the reader comes back to it after paying. */}
          <Link to={`/upgrade?post=${encodeURIComponent(postId)}`} className="button">
            Upgrade
          </Link>
        </>
      )}
      {gate === 'unavailable' && <p>{`This premium ${settings.postsingular} can't be shown right now.`}</p>}
    </div>
  );
}
