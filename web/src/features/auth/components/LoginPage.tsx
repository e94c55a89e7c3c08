import { useState } from 'react';
import { Navigate } from 'react-router-dom';
import { useAppSelector } from '../../../app/hooks';
import { useClearProblemsOnStep } from '../../../shared/notify';
import { safeImageUrl } from '../../../shared/safeUrl';
import { NarrowLayout } from '../../layout/components/NarrowLayout';
import { ProfileForm } from '../../profile/components/ProfileForm';
import { selectSettings } from '../../settings/selectors';
import { loginScreen } from '../rules';
import { selectIsLogin, selectLoginStep, selectUser } from '../selectors';
import { CodeStep } from './CodeStep';
import { EmailStep } from './EmailStep';

/**
 * /login and /register, the signed-out home by default: image, headline and the pitch (what the service is, from the
 * loginpitch setting), then e-mail (step 0), code (step 1), then the profile form (step 2) for new users. */
export function LoginPage() {
  const settings = useAppSelector(selectSettings);
  const isLogin = useAppSelector(selectIsLogin);
  const user = useAppSelector(selectUser);
  const step = useAppSelector(selectLoginStep);
  const [imageFailed, setImageFailed] = useState(false);
  const screen = loginScreen({ isLogin, user, step });
  useClearProblemsOnStep(screen === 'home' ? step : screen);

  if (screen === 'home') return <Navigate to="/" replace />;

  if (screen === 'profile' && user)
    return (
      <NarrowLayout>
        <h1 className="page-title">{settings.emailupdateheadline}</h1>
        <ProfileForm user={user} />
      </NarrowLayout>
    );

  const image = safeImageUrl(settings.loginimage);
  return (
    <NarrowLayout>
      <div className="login">
        {screen === 'email' && image && !imageFailed && (
          <img className="login__image" src={image} alt="" onError={() => setImageFailed(true)} />
        )}
        <h1 className="page-title">{settings.loginheadline}</h1>
        {screen === 'email' && settings.loginpitch && <p className="login__pitch">{settings.loginpitch}</p>}
        {screen === 'email' ? <EmailStep /> : <CodeStep />}
      </div>
    </NarrowLayout>
  );
}
