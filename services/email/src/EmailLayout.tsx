import type { SiteSettings } from '@nudge/contracts';
import { Body, Container, Head, Hr, Html, Img, Preview, Text } from '@react-email/components';
import type { CSSProperties, ReactNode } from 'react';

/** The site settings every e-mail of the product is dressed in (admin.md: e-mail logo, colours, titles). */
export type EmailBrand = Pick<
  SiteSettings,
  | 'sitetitle'
  | 'footersitetitle'
  | 'emaillogo'
  | 'headingcolor'
  | 'paragraphcolor'
  | 'buttoncolor'
  | 'buttonfontcolor'
  | 'backgroundcolor'
>;

const font = "-apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif";

/** The inline styles of an e-mail's body text, main heading and button, in the site's colours. */
export function emailStyles(s: EmailBrand) {
  const paragraph: CSSProperties = {
    color: s.paragraphcolor,
    fontSize: '16px',
    lineHeight: '26px',
    margin: '0 0 16px',
  };
  const heading: CSSProperties = {
    color: s.headingcolor,
    fontSize: '24px',
    lineHeight: '32px',
    margin: '0 0 16px',
  };
  const button: CSSProperties = {
    backgroundColor: s.buttoncolor,
    color: s.buttonfontcolor,
    borderRadius: '6px',
    padding: '12px 20px',
    fontWeight: 600,
    fontSize: '16px',
    textDecoration: 'none',
  };
  return { paragraph, heading, button };
}

/** The small grey print at the bottom of an e-mail, and its links. */
export const footerLinkStyle: CSSProperties = { color: '#71717a', textDecoration: 'underline' };

/**
 * The frame of every e-mail (React Email: tables and inline styles that mail clients render): the page, a card of
 * at most 600 px in the site's background colour, and the e-mail logo (or the site title when there is none).
 */
export function EmailLayout({
  settings: s,
  preview,
  children,
}: {
  settings: EmailBrand;
  preview: string;
  children: ReactNode;
}) {
  return (
    <Html lang="en">
      <Head />
      <Preview>{preview}</Preview>
      <Body style={{ backgroundColor: '#f4f4f5', fontFamily: font, margin: 0, padding: '16px 0' }}>
        <Container
          style={{
            backgroundColor: s.backgroundcolor || '#ffffff',
            maxWidth: '600px',
            width: '100%',
            borderRadius: '8px',
            padding: '24px',
            boxSizing: 'border-box',
          }}
        >
          {s.emaillogo ? (
            <Img
              src={s.emaillogo}
              alt={s.sitetitle}
              height="40"
              style={{ margin: '0 0 16px', maxWidth: '100%' }}
            />
          ) : (
            <Text style={{ color: s.headingcolor, fontSize: '18px', fontWeight: 700, margin: '0 0 16px' }}>
              {s.sitetitle}
            </Text>
          )}
          {children}
        </Container>
      </Body>
    </Html>
  );
}

/** The rule and small print that end an e-mail (why the reader gets it, and how to stop it). */
export function EmailFooter({ children }: { children: ReactNode }) {
  return (
    <>
      <Hr style={{ borderColor: '#e4e4e7', margin: '24px 0 12px' }} />
      <Text style={{ color: '#71717a', fontSize: '12px', lineHeight: '18px', margin: 0 }}>{children}</Text>
    </>
  );
}
