import { escapeHtml } from '@nudge/contracts';
import { longDate, PREMIUM_PLAN } from '../domain/plan';
import type { SubscriptionEntity } from '../infra/razorpay-webhooks';

const STYLE = `
body{margin:0;font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;background:#f4f4f5;color:#18181b}
main{max-width:420px;margin:48px auto;padding:28px;background:#fff;border-radius:12px;box-shadow:0 1px 4px rgba(0,0,0,.12)}
h1{font-size:1.4rem;margin:0 0 8px}
p{line-height:1.5}
.note{font-size:.9rem;color:#52525b;background:#fef9c3;padding:8px 12px;border-radius:8px}
dl{display:grid;grid-template-columns:auto 1fr;gap:6px 16px;margin:20px 0}
dt{color:#52525b}dd{margin:0;font-weight:600}
form{display:flex;gap:12px;flex-wrap:wrap;margin-top:24px}
button{font:inherit;font-weight:600;padding:12px 20px;border-radius:8px;border:2px solid transparent;cursor:pointer}
button:focus-visible,a:focus-visible{outline:3px solid #2563eb;outline-offset:2px}
.pay{background:#15803d;color:#fff}.fail{background:#fff;color:#b91c1c;border-color:#b91c1c}
a{color:#1d4ed8}
`;

const layout = (title: string, body: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)} · Nudge</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>`;

/** The embedded topology's checkout page: no script, one form whose two buttons complete or fail the payment. */
export function simulatedCheckoutPage(sub: SubscriptionEntity, action: string, now: Date): string {
  const later = sub.start_at && sub.start_at * 1000 > now.getTime();
  const price = `₹${(PREMIUM_PLAN.amount / 100).toLocaleString('en-IN')}`;
  const rows = [
    ['Plan', `${PREMIUM_PLAN.name} (${PREMIUM_PLAN.months} months)`],
    ['Amount', `${price} per year`],
    ...(later ? [['First charge', longDate(new Date(sub.start_at! * 1000).toISOString())]] : []),
    ['Subscription', sub.id],
  ];
  return layout(
    'Simulated checkout',
    `<h1>Simulated checkout</h1>
<p class="note">This page stands in for Razorpay on a machine without Razorpay keys. No money moves.</p>
${later ? '<p>Authorise the renewal now; the yearly charge happens when your current term ends.</p>' : ''}
<dl>
${rows.map(([k, v]) => `<dt>${escapeHtml(k!)}</dt><dd>${escapeHtml(v!)}</dd>`).join('\n')}
</dl>
<form method="post" action="${escapeHtml(action)}">
<button class="pay" type="submit" name="outcome" value="pay">${later ? `Authorise ${price} renewal` : `Pay ${price}`}</button>
<button class="fail" type="submit" name="outcome" value="fail">Fail payment</button>
</form>
<p><a href="/upgrade">Back to the subscription page</a></p>`,
  );
}

export const simulatedMessagePage = (title: string, text: string) =>
  layout(
    title,
    `<h1>${escapeHtml(title)}</h1>\n<p>${escapeHtml(text)}</p>\n<p><a href="/upgrade">Back to the subscription page</a></p>`,
  );
