import { type EmailBrand, EmailFooter, EmailLayout, emailStyles, footerLinkStyle } from '@nudge/email';
import { Button, Heading, Link, Section, Text } from '@react-email/components';

/** Everything the renewal notice shows: the facts are already worded in the reader's time zone. */
export interface RenewalNoticeModel {
  settings: EmailBrand;
  firstname: string;
  heading: string;
  paragraphs: string[];
  /** The reader's Subscription page (reader.md /upgrade), where renewal is turned off or on. */
  manageUrl: string;
  /** The site's Terms and Privacy page. */
  termsUrl: string;
}

/** The notice 7 days before a subscription's end, in the frame every e-mail of the product shares. */
export function RenewalNoticeEmail({ m }: { m: RenewalNoticeModel }) {
  const s = m.settings;
  const { paragraph, heading, button } = emailStyles(s);
  return (
    <EmailLayout settings={s} preview={m.heading}>
      {m.firstname ? <Text style={paragraph}>Hi {m.firstname},</Text> : null}
      <Heading as="h1" style={heading}>
        {m.heading}
      </Heading>
      {m.paragraphs.map((p) => (
        <Text key={p} style={paragraph}>
          {p}
        </Text>
      ))}
      <Section style={{ margin: '8px 0 16px' }}>
        <Button href={m.manageUrl} style={button}>
          Manage your subscription
        </Button>
      </Section>
      <EmailFooter termsUrl={m.termsUrl}>
        You get this e-mail because you have a premium subscription to {s.footersitetitle || s.sitetitle}.{' '}
        <Link href={m.manageUrl} style={footerLinkStyle}>
          Your Subscription page
        </Link>
      </EmailFooter>
    </EmailLayout>
  );
}
