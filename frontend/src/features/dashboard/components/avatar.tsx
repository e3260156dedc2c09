import { useState } from 'react';
import { InitialsAvatar } from '@/components/initials-avatar';

interface AvatarProps {
  /** short-lived picture URL (SessionUser.profilePic / logoPic) */
  readonly src?: string;
  /** shown when there is no picture or it fails to load (an expired URL) */
  readonly initials: string;
  readonly alt: string;
  readonly size?: number;
  readonly shape?: 'round' | 'square';
  readonly testId?: string;
  /** the user id or email whose colour the initials get */
  readonly seed?: string;
}

/** A picture, or initials on a tinted disc when there is none (spec §7: avatar by initials). */
export function Avatar({ src, initials, alt, size = 40, shape = 'round', testId, seed }: AvatarProps) {
  const [failed, setFailed] = useState<string | null>(null);
  const style = { width: size, height: size, fontSize: Math.round(size * 0.4) };
  const className = `dash-avatar dash-avatar-${shape}`;
  if (src && failed !== src) {
    return (
      <img
        className={className}
        src={src}
        alt={alt}
        style={style}
        onError={() => setFailed(src)}
        data-testid={testId}
      />
    );
  }
  if (seed && shape === 'round')
    return (
      <InitialsAvatar className={className} seed={seed} initials={initials} size={size} label={alt} testId={testId} />
    );
  return (
    <span
      className={`${className} dash-avatar-initials`}
      role="img"
      aria-label={alt}
      style={style}
      data-testid={testId}
    >
      {initials}
    </span>
  );
}
