import { Link } from 'react-router-dom';
import { useAppSelector } from '../../../app/hooks';
import { DeleteAccountSection } from '../../account-deletion/components/DeleteAccountSection';
import { selectUser } from '../../auth/selectors';
import { NarrowLayout } from '../../layout/components/NarrowLayout';
import { ProfileForm } from './ProfileForm';

/** /setting: profile and notification settings (behind the guard, which sends signed-out visitors to /login). */
export function SettingsPage() {
  const user = useAppSelector(selectUser);
  if (!user) return null;
  return (
    <NarrowLayout>
      <Link to="/" className="back-link">
        Back to Home
      </Link>
      <h1 className="page-title">Settings</h1>
      <ProfileForm user={user} />
      <DeleteAccountSection />
    </NarrowLayout>
  );
}
