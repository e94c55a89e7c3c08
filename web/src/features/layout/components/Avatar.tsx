import { avatarFor } from '../avatar';

export function Avatar({ email, size = 36 }: { email: string; size?: number }) {
  const { initial, colour } = avatarFor(email);
  return (
    <span
      className="avatar"
      style={{ backgroundColor: colour, width: size, height: size, fontSize: size * 0.45 }}
      aria-hidden="true"
    >
      {initial}
    </span>
  );
}
