import { useEffect } from 'react';

const APP_NAME = 'SendBridge';

/** Sets document.title for the mounted screen ("Pricing · SendBridge"). */
export function usePageTitle(title: string | undefined): void {
  useEffect(() => {
    document.title = title ? `${title} · ${APP_NAME}` : APP_NAME;
  }, [title]);
}
