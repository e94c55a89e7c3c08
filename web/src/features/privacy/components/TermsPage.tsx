import { splitParagraphs } from '@nudge/contracts/paragraphs';
import { useAppSelector } from '../../../app/hooks';
import { selectSettings } from '../../settings/selectors';

/** /terms: the Terms and Privacy page; the texts are site settings (termstext, privacytext) with built-in defaults. */
export function TermsPage() {
  const { sitetitle, termstext, privacytext } = useAppSelector(selectSettings);
  return (
    <article className="about terms">
      <h1 className="page-title">Terms and Privacy</h1>
      <h2 id="terms">Terms of {sitetitle}</h2>
      {splitParagraphs(termstext).map((paragraph, i) => (
        <p key={i}>{paragraph}</p>
      ))}
      <h2 id="privacy">Privacy</h2>
      {splitParagraphs(privacytext).map((paragraph, i) => (
        <p key={i}>{paragraph}</p>
      ))}
    </article>
  );
}
