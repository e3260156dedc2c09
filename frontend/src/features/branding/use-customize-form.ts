import { useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { normalizeHexColour, type BrandImageKind } from '@domain/branding';
import type { BrandingUpdateInput, OwnBranding } from '@domain/branding-api';
import { putFile } from '@/shared/account/account-api';
import { requestBrandImageUpload, saveBranding } from '@/shared/branding/branding-api';
import { brandImageProblem } from '@/features/branding/image-check';
import { useSession } from '@/lib/session/session-provider';
import { useAction } from '@/lib/use-action';

/** A picked image: its upload key once stored, and a local preview URL meanwhile. */
export interface Picked {
  readonly key: string;
  readonly preview: string;
}

/** The customize form's fields, its image uploads and its save, all through one action. */
export function useCustomizeForm(initial: OwnBranding, onSaved: (b: OwnBranding) => void) {
  const { t } = useTranslation('branding');
  const { reloadUser } = useSession();
  const action = useAction();
  const [accent, setAccent] = useState(initial.accentColor ?? '');
  const [background, setBackground] = useState(initial.backgroundColor ?? '');
  const [showLogoNav, setShowLogoNav] = useState(initial.showLogoNav);
  const [logo, setLogo] = useState<Picked | null | undefined>(undefined);
  const [backgroundImage, setBackgroundImage] = useState<Picked | null | undefined>(undefined);
  const [saved, setSaved] = useState(false);
  const [imageError, setImageError] = useState<Partial<Record<BrandImageKind, string>>>({});
  const readOnly = !initial.editable;

  const accentOk = accent === '' || normalizeHexColour(accent) !== null;
  const backgroundOk = background === '' || normalizeHexColour(background) !== null;
  const logoSrc = logo === undefined ? initial.logoUrl : (logo?.preview ?? null);
  const backgroundSrc = backgroundImage === undefined ? initial.backgroundUrl : (backgroundImage?.preview ?? null);

  async function pick(kind: BrandImageKind, event: ChangeEvent<HTMLInputElement>) {
    const file = event.currentTarget.files?.[0];
    event.currentTarget.value = '';
    if (!file) return;
    const problem = brandImageProblem(kind, file);
    if (problem) {
      setImageError((e) => ({ ...e, [kind]: t(problem === 'type' ? 'customize.imageType' : 'customize.imageSize') }));
      return;
    }
    setImageError((e) => ({ ...e, [kind]: undefined }));
    setSaved(false);
    await action.run(async () => {
      const target = await requestBrandImageUpload({ kind, contentType: file.type, size: file.size });
      await putFile(target.url, target.headers, file);
      const picked = { key: target.key, preview: URL.createObjectURL(file) };
      if (kind === 'logo') setLogo(picked);
      else setBackgroundImage(picked);
    });
  }

  async function save() {
    if (!accentOk || !backgroundOk || readOnly) return;
    const body: BrandingUpdateInput = {
      accentColor: accent,
      backgroundColor: background,
      showLogoNav,
      ...(logo !== undefined ? { logoKey: logo?.key ?? '' } : {}),
      ...(backgroundImage !== undefined ? { backgroundKey: backgroundImage?.key ?? '' } : {}),
    };
    setSaved(false);
    const done = await action.run(async () => {
      const result = await saveBranding(body);
      onSaved(result);
      setLogo(undefined);
      setBackgroundImage(undefined);
      setSaved(true);
    });
    // The top navigation shows the logo from the session's user.
    if (done) await reloadUser().catch(() => undefined);
  }

  return {
    action,
    saved,
    readOnly,
    accent,
    setAccent,
    accentOk,
    background,
    setBackground,
    backgroundOk,
    showLogoNav,
    setShowLogoNav,
    logoSrc,
    removeLogo: () => setLogo(null),
    backgroundSrc,
    removeBackground: () => setBackgroundImage(null),
    imageError,
    pick,
    save,
  };
}

export type CustomizeForm = ReturnType<typeof useCustomizeForm>;
