import { Link } from 'react-router-dom';
import { useAppSelector } from '../../../app/hooks';
import { selectIsLogin } from '../../auth/selectors';
import { selectSettings } from '../../settings/selectors';

/** /aboutus: the default About page (the aboutpage setting can send the About links elsewhere). */
export function AboutPage() {
  const { sitetitle, postsingular, postplural, subscription } = useAppSelector(selectSettings);
  const isLogin = useAppSelector(selectIsLogin);
  return (
    <article className="about">
      <h1 className="page-title">About {sitetitle}</h1>
      <p>
        {sitetitle} comes from a health media organisation that believes small, regular prompts do more for
        wellbeing than occasional big resolutions. We call these prompts nudges: short, practical pieces you
        can read in a minute or two and act on the same day.
      </p>
      <h2>A daily reminder, at a time you choose</h2>
      <p>
        Once you sign up, we send you one reminder a day, by e-mail, by WhatsApp, or both. You choose the
        time, in quarter-hour steps, and it arrives in your own time zone. You can pause reminders or change
        the time whenever you like from your settings, and our e-mails carry a link to stop them.
      </p>
      <h2>Short {postplural}, grouped by topic</h2>
      <p>
        Each reminder links to a short {postsingular} on the website. Pick the topics that matter to you and
        your feed follows them. You can like {postplural}, join the conversation in the comments, and see your
        reading streak and progress build up over the week.
      </p>
      <h2>Check-ins and your wellbeing score</h2>
      <p>
        From time to time a reminder asks you a quick question. Your answers feed a simple wellbeing score, so
        you can see how you are doing over time.
      </p>
      {subscription && (
        <>
          <h2>Premium</h2>
          <p>
            Most {postplural} are free. Some are marked Premium and are open to subscribers of our yearly
            premium plan, which also gives access to our community groups.
          </p>
        </>
      )}
      <p className="about__cta">
        {isLogin ? (
          <Link to="/setting" className="button">
            Choose your topics and reminder time
          </Link>
        ) : (
          <Link to="/login" className="button">
            Register or sign in
          </Link>
        )}
      </p>
    </article>
  );
}
