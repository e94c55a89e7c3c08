import {
  Body,
  Button,
  Column,
  Container,
  Head,
  Heading,
  Hr,
  Html,
  Img,
  Link,
  Preview,
  Row,
  Section,
  Text,
} from '@react-email/components';
import { CHECKIN_LABELS, type ReminderEmailModel } from './model';

const font = "-apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif";

/** The daily reminder e-mail (React Email: tables and inline styles that mail clients render). */
export function ReminderEmail({ m }: { m: ReminderEmailModel }) {
  const s = m.settings;
  const button = {
    backgroundColor: s.buttoncolor,
    color: s.buttonfontcolor,
    borderRadius: '6px',
    padding: '12px 20px',
    fontWeight: 600,
    fontSize: '16px',
    textDecoration: 'none',
  };
  const paragraph = { color: s.paragraphcolor, fontSize: '16px', lineHeight: '26px', margin: '0 0 16px' };
  return (
    <Html lang="en">
      <Head />
      <Preview>{m.heading}</Preview>
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
          {m.firstname ? <Text style={paragraph}>Hi {m.firstname},</Text> : null}
          {m.image ? (
            <Img
              src={m.image}
              alt=""
              width="100%"
              style={{ borderRadius: '6px', margin: '0 0 16px', maxWidth: '100%' }}
            />
          ) : null}
          <Heading
            as="h1"
            style={{ color: s.headingcolor, fontSize: '24px', lineHeight: '32px', margin: '0 0 16px' }}
          >
            {m.heading}
          </Heading>
          {m.paragraphs.map((p, i) => (
            <Text key={i} style={paragraph}>
              {p}
            </Text>
          ))}
          <Section style={{ margin: '8px 0 16px' }}>
            <Button href={m.continueUrl} style={button}>
              {m.locked ? 'Read the full post' : 'Continue reading'}
            </Button>
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
          <Hr style={{ borderColor: '#e4e4e7', margin: '24px 0 12px' }} />
          <Text style={{ color: '#71717a', fontSize: '12px', lineHeight: '18px', margin: 0 }}>
            You get this e-mail because you chose a daily reminder from {s.footersitetitle || s.sitetitle}.{' '}
            <Link href={m.unsubscribeUrl} style={{ color: '#71717a', textDecoration: 'underline' }}>
              Unsubscribe
            </Link>
          </Text>
          <Img src={m.openPixelUrl} alt="" width="1" height="1" style={{ display: 'block', border: 0 }} />
        </Container>
      </Body>
    </Html>
  );
}
