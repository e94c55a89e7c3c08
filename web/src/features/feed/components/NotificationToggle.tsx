import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { selectUser } from '../../auth/selectors';
import { Switch } from '../../ui/components/Switch';
import { notificationStateText } from '../notificationToggle';
import { selectNotificationSaving } from '../selectors';
import { notificationToggleRequested } from '../slice';

/** The on/paused toggle of the daily reminder (notiinfo.active); it moves once the server has saved it. */
export function NotificationToggle() {
  const dispatch = useAppDispatch();
  const user = useAppSelector(selectUser);
  const saving = useAppSelector(selectNotificationSaving);
  if (!user) return null;
  const active = user.notiinfo.active;
  return (
    <fieldset className="feed-reminder" disabled={saving} aria-busy={saving}>
      <legend className="visually-hidden">Daily reminder</legend>
      <Switch
        id="feed-reminder-switch"
        label="Daily reminder"
        checked={active}
        describedBy="feed-reminder-state"
        onChange={(checked) => dispatch(notificationToggleRequested(checked))}
      />
      <span
        id="feed-reminder-state"
        className={`feed-reminder__state feed-reminder__state--${active ? 'on' : 'paused'}`}
      >
        {saving ? 'Saving…' : notificationStateText(active)}
      </span>
    </fieldset>
  );
}
