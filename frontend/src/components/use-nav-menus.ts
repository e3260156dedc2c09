import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router';

/**
 * The top bar's Features dropdown and mobile menu: both close on navigation and on Escape; a
 * click outside the dropdown closes it.
 */
export function useNavMenus() {
  const location = useLocation();
  const [featuresOpen, setFeaturesOpen] = useState(false);
  const [mobileOpen, setMobileOpen] = useState(false);
  const featuresRef = useRef<HTMLLIElement>(null);

  useEffect(() => {
    setFeaturesOpen(false);
    setMobileOpen(false);
  }, [location.pathname, location.search]);

  useEffect(() => {
    if (!featuresOpen && !mobileOpen) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        setFeaturesOpen(false);
        setMobileOpen(false);
      }
    };
    const onClick = (event: MouseEvent) => {
      if (featuresRef.current && !featuresRef.current.contains(event.target as Node)) setFeaturesOpen(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('click', onClick);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('click', onClick);
    };
  }, [featuresOpen, mobileOpen]);

  // a tuple, not an object: its names are minified away (this bar is in every first load)
  return [featuresOpen, setFeaturesOpen, mobileOpen, setMobileOpen, featuresRef] as const;
}
