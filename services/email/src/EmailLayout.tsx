import type { SiteSettings } from '@nudge/contracts';
import { Body, Container, Head, Hr, Html, Img, Link, Text } from '@react-email/components';
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
      <PreviewText text={preview} />
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

/** How many characters of an e-mail's start an inbox shows beside the subject, at most (Gmail on the web: about 200). */
export const PREVIEW_CHARS = 200;
/**
 * One pair of the invisible filler: a no-break space, and a zero-width non-joiner so that clients do not collapse the
 * spaces. The space is written as the character (Latin-1: the HTML string stays one byte per character in V8), the
 * non-joiner as its entity.
 */
const FILLER_PAIR = '\u00a0&zwnj;';

/**
 * The inbox preview (preheader): the text, hidden in the opened e-mail and left out of the plain-text part, then
 * invisible filler up to PREVIEW_CHARS characters so that the inbox does not go on with the e-mail's first lines.
 * React Email's `<Preview>` does the same with about seven filler characters for each one missing (about 1,000
 * characters, 3 KB of UTF-8 in every e-mail); a client counts each filler character once, so this fills exactly.
 */
export function PreviewText({ text }: { text: string }) {
  const shown = text.replace(/\s+/g, ' ').trim().slice(0, PREVIEW_CHARS);
  const pairs = Math.ceil((PREVIEW_CHARS - shown.length) / 2);
  return (
    <div
      style={{
        display: 'none',
        overflow: 'hidden',
        lineHeight: '1px',
        opacity: 0,
        maxHeight: 0,
        maxWidth: 0,
      }}
      data-skip-in-text="true"
    >
      {shown}
      {pairs > 0 ? <div dangerouslySetInnerHTML={{ __html: FILLER_PAIR.repeat(pairs) }} /> : null}
    </div>
  );
}

const footerText: CSSProperties = { color: '#71717a', fontSize: '12px', lineHeight: '18px', margin: 0 };

/**
 * The rule and small print that end an e-mail: why the reader gets it and how to stop it (`children`), then the
 * link to the site's Terms and Privacy page (`termsUrl`, the site's /terms), which every e-mail carries.
 */
export function EmailFooter({ termsUrl, children }: { termsUrl: string; children: ReactNode }) {
  return (
    <>
      <Hr style={{ borderColor: '#e4e4e7', margin: '24px 0 12px' }} />
      <Text style={footerText}>{children}</Text>
      <Text style={{ ...footerText, marginTop: '8px' }}>
        <Link href={termsUrl} style={footerLinkStyle}>
          Terms and Privacy
        </Link>
      </Text>
    </>
  );
}

/** The Terms and Privacy page of the site at `publicUrl`, for the footer of every e-mail. */
export const termsUrlOf = (publicUrl: string): string => `${publicUrl.replace(/\/+$/, '')}/terms`;
