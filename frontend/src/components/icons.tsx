import { type IconProps, strokeIcon } from '@/components/icon-base';

const base = strokeIcon(20);

export function LogoMark(props: IconProps) {
  return (
    <svg width={28} height={28} viewBox="0 0 32 32" aria-hidden="true" {...props}>
      <rect width="32" height="32" rx="8" fill="var(--brand)" />
      <path d="M7 20c3-7 15-7 18 0" fill="none" stroke="#fff" strokeWidth="3" strokeLinecap="round" />
      <path d="M9 20v4M23 20v4M16 14v10" stroke="#fff" strokeWidth="3" strokeLinecap="round" />
    </svg>
  );
}

export function ChevronDown(props: IconProps) {
  return (
    <svg aria-hidden="true" {...base} width={16} height={16} {...props}>
      <path d="m6 9 6 6 6-6" />
    </svg>
  );
}

export function MenuIcon(props: IconProps) {
  return (
    <svg aria-hidden="true" {...base} width={24} height={24} {...props}>
      <path d="M4 6h16M4 12h16M4 18h16" />
    </svg>
  );
}

export function CloseIcon(props: IconProps) {
  return (
    <svg aria-hidden="true" {...base} width={24} height={24} {...props}>
      <path d="M6 6l12 12M18 6 6 18" />
    </svg>
  );
}

export function CheckIcon(props: IconProps) {
  return (
    <svg aria-hidden="true" {...base} width={18} height={18} {...props}>
      <path d="m5 12 5 5 9-10" />
    </svg>
  );
}

export function ArrowRight(props: IconProps) {
  return (
    <svg aria-hidden="true" {...base} width={18} height={18} {...props}>
      <path d="M5 12h14M13 6l6 6-6 6" />
    </svg>
  );
}

const FEATURE_PATHS: Record<string, string> = {
  regions: 'M12 21s-7-6.2-7-11.5A7 7 0 0 1 19 9.5C19 14.8 12 21 12 21zM12 12a2.5 2.5 0 1 0 0-5 2.5 2.5 0 0 0 0 5z',
  security: 'M6 11V8a6 6 0 0 1 12 0v3M5 11h14v10H5zM12 15v2',
  tracking: 'M3 12h4l3-7 4 14 3-7h4',
  requests: 'M12 3v12M7 10l5 5 5-5M4 17v4h16v-4',
  teams: 'M9 11a4 4 0 1 0 0-8 4 4 0 0 0 0 8zM2 21v-1a6 6 0 0 1 12 0v1M16 3.5a4 4 0 0 1 0 7.5M22 21v-1a6 6 0 0 0-4-5.6',
  resume: 'M4 12a8 8 0 1 0 2.3-5.7M4 4v4h4',
};

export function FeatureIcon({ name, ...props }: IconProps & { name: string }) {
  return (
    <svg aria-hidden="true" {...base} width={24} height={24} {...props}>
      <path d={FEATURE_PATHS[name] ?? FEATURE_PATHS.regions} />
    </svg>
  );
}
