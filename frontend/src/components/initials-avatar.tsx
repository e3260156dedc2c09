import { avatarColourOf } from '@/components/avatar-colour';

interface InitialsAvatarProps {
  /** user id or email: picks the colour */
  readonly seed: string;
  readonly initials: string;
  readonly size?: number;
  /** accessible name; without it the avatar is decorative */
  readonly label?: string;
  readonly className?: string;
  readonly testId?: string;
}

/** An inline SVG of one or two initials on the seed's colour (nav, dashboard, team member lists). */
export function InitialsAvatar({ seed, initials, size = 40, label, className, testId }: InitialsAvatarProps) {
  const fill = avatarColourOf(seed);
  return (
    <svg
      className={className}
      width={size}
      height={size}
      viewBox="0 0 40 40"
      role={label ? 'img' : undefined}
      aria-label={label}
      aria-hidden={!label}
      data-testid={testId}
    >
      <circle cx="20" cy="20" r="20" fill={fill} />
      <text
        x="20"
        y="20"
        dy=".35em"
        textAnchor="middle"
        fill="#fff"
        fontSize={initials.length > 1 ? 15 : 18}
        fontWeight="700"
      >
        {initials}
      </text>
    </svg>
  );
}
