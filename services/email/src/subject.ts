/**
 * An e-mail subject with the site settings' subject prefix. The settings form trims every text, so a prefix such as
 * "[Calm] " is stored as "[Calm]": the prefix and the subject are joined by one space, whatever the stored value ends
 * with. An empty prefix adds nothing.
 */
export function prefixedSubject(prefix: string, subject: string): string {
  const p = prefix.trim();
  return p ? `${p} ${subject}` : subject;
}
