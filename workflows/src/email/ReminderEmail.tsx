import { EmailFooter, EmailLayout, emailStyles, footerLinkStyle } from '@nudge/email';
import { Button, Column, Heading, Img, Link, Row, Section, Text } from '@react-email/components';
import { CHECKIN_LABELS, type ReminderEmailModel } from './model';

/** The daily reminder e-mail, in the frame every e-mail of the product shares (@nudge/email). */
export function ReminderEmail({ m }: { m: ReminderEmailModel }) {
  const s = m.settings;
  const { paragraph, heading, button } = emailStyles(s);
  return (
    <EmailLayout settings={s} preview={m.preheader || m.heading}>
      {m.firstname ? <Text style={paragraph}>Hi {m.firstname},</Text> : null}
      {m.image ? (
        <Img
          src={m.image}
          alt=""
          width="100%"
          style={{ borderRadius: '6px', margin: '0 0 16px', maxWidth: '100%' }}
        />
      ) : null}
      <Heading as="h1" style={heading}>
        {m.heading}
      </Heading>
      {m.paragraphs.map((p, i) => (
        <Text key={i} style={paragraph}>
          {p}
        </Text>
      ))}
      <Section style={{ margin: '8px 0 16px' }}>
        <Button href={m.continueUrl} style={button}>
          {m.locked ? 'Read the full post' : m.fullPost ? 'Open the post' : 'Continue reading'}
        </Button>{' '}
        <Link href={m.likeUrl} style={{ color: s.buttoncolor, fontSize: '16px', marginLeft: '16px' }}>
          ♥ Like
        </Link>
      </Section>
      {m.locked && m.upgradeUrl ? (
        <Text style={paragraph}>
          This post is for premium members.{' '}
          <Link href={m.upgradeUrl} style={{ color: s.buttoncolor }}>
            Upgrade to read it all
          </Link>
          .
        </Text>
      ) : null}
      {m.checkin ? (
        <Section
          style={{ margin: '16px 0', padding: '16px', backgroundColor: '#f8fafc', borderRadius: '6px' }}
        >
          <Text style={{ ...paragraph, fontWeight: 600 }}>{m.checkin.body}</Text>
          <Row style={{ tableLayout: 'fixed', width: '100%' }}>
            {m.checkin.answers.map((a) => (
              <Column key={a.answer} align="center" style={{ padding: '2px', width: '20%' }}>
                <Link
                  href={a.url}
                  style={{
                    display: 'block',
                    border: `1px solid ${s.buttoncolor}`,
                    borderRadius: '6px',
                    color: s.headingcolor,
                    fontSize: '16px',
                    lineHeight: '20px',
                    padding: '10px 2px',
                    textAlign: 'center',
                    textDecoration: 'none',
                  }}
                >
                  <strong>{a.answer}</strong>
                </Link>
              </Column>
            ))}
          </Row>
          <Text
            style={{ color: s.paragraphcolor, fontSize: '12px', lineHeight: '16px', margin: '6px 2px 0' }}
          >
            1 = {CHECKIN_LABELS[1]}, 5 = {CHECKIN_LABELS[5]}
          </Text>
        </Section>
      ) : null}
      {m.recommendations.length > 0 ? (
        <Section style={{ margin: '16px 0' }}>
          <Heading as="h2" style={{ color: s.headingcolor, fontSize: '18px', margin: '0 0 8px' }}>
            {s.recommendationheading}
          </Heading>
          {m.recommendations.map((r) => (
            <Text key={r.url} style={{ margin: '0 0 8px', fontSize: '16px' }}>
              <Link href={r.url} style={{ color: s.buttoncolor }}>
                {r.heading}
              </Link>
            </Text>
          ))}
        </Section>
      ) : null}
      <EmailFooter>
        You get this e-mail because you chose a daily reminder from {s.footersitetitle || s.sitetitle}.{' '}
        <Link href={m.unsubscribeUrl} style={footerLinkStyle}>
          Unsubscribe
        </Link>
      </EmailFooter>
      <Img src={m.openPixelUrl} alt="" width="1" height="1" style={{ display: 'block', border: 0 }} />
    </EmailLayout>
  );
}
