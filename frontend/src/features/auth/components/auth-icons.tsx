import { type IconProps, strokeIcon } from '@/components/icon-base';

export function RefreshIcon(props: IconProps) {
  return (
    <svg {...strokeIcon(16)} aria-hidden="true" {...props}>
      <path d="M20 12a8 8 0 1 1-2.3-5.7M20 4v4h-4" />
    </svg>
  );
}
