import { useAppSelector } from '../../../app/hooks';
import { selectIsLogin, selectUser } from '../../auth/selectors';
import { NarrowLayout } from '../../layout/components/NarrowLayout';
import { selectSettings } from '../../settings/selectors';
import { showsManagement, upgradeAccess } from '../access';
import '../subscription.css';
import { AccessGate } from './AccessGate';
import { PurchaseCard } from './PurchaseCard';
import { SubscriptionManagement } from './SubscriptionManagement';

/**
 * /upgrade (reader.md §2): home while the subscription setting is off; signed-out visitors go to /login with a toast
 * (our guard rule, the spec leaves it open); premium readers manage their subscription, others can buy it.
 */
export function UpgradePage() {
  const { subscription } = useAppSelector(selectSettings);
  const isLogin = useAppSelector(selectIsLogin);
  const user = useAppSelector(selectUser);
  return (
    <AccessGate access={upgradeAccess({ subscriptionOn: subscription, isLogin })}>
      <NarrowLayout>
        {showsManagement(user?.role) ? <SubscriptionManagement /> : <PurchaseCard />}
      </NarrowLayout>
    </AccessGate>
  );
}
