/**
 * Product mail copy per language. `{name}` marks a value the template fills in (already
 * escaped for HTML, plain for text); the copy itself is plain text and is escaped when the
 * HTML is built. Plurals follow Intl.PluralRules of `locale` (French counts 0 as singular).
 * en reuses the spec's fixed texts; es uses "tú" as the app does, fr and de the formal address.
 */
import { TEXTS } from '../../domain/texts';
import { mailLanguageOf, type MailLanguage } from '../../domain/transfer-api';

export interface Plural {
  readonly one: string;
  readonly other: string;
}

export interface MailStrings {
  /** BCP 47 locale for dates, numbers and plural rules */
  readonly locale: string;
  /** what goes between a label and its value ('Message: …'; French puts a space before it) */
  readonly colon: string;
  /** {count} */
  readonly fileCount: Plural;
  /** {count}: the rest of a shortened list */
  readonly andMore: Plural;
  /** {files} {size} */
  readonly filesSummary: string;
  /** unit names where they differ from formatBytes' B/KB/MB/GB/TB/PB (French octets) */
  readonly byteUnits?: Readonly<Record<string, string>>;
  readonly orCopyLink: string;
  /** {date} */
  readonly availableUntil: string;
  readonly downloadButton: string;
  readonly transfer: {
    /** {sender} {what}: a file name or fileCount */
    readonly subject: string;
    /** {sender} {what} */
    readonly heading: string;
    readonly messageLabel: string;
    /** {sender} */
    readonly password: string;
    /** {sender} */
    readonly footer: string;
  };
  readonly transferSent: {
    /** {first} */
    readonly subjectOne: string;
    /** {first} {others} */
    readonly subjectMany: string;
    /** {count} */
    readonly others: Plural;
    readonly heading: string;
    readonly sentTo: string;
    readonly button: string;
    readonly notify: string;
    readonly footer: string;
  };
  readonly senderCode: {
    /** {code} */
    readonly subject: string;
    readonly heading: string;
    readonly intro: string;
    /** {count} minutes */
    readonly validity: Plural;
    readonly ignore: string;
    readonly footer: string;
  };
  readonly downloadNotice: {
    /** {who} {what} */
    readonly subject: string;
    /** {who} {what} */
    readonly heading: string;
    readonly someone: string;
    readonly allFiles: string;
    readonly whenLabel: string;
    readonly whereLabel: string;
    readonly unknownLocation: string;
    readonly button: string;
    readonly footer: string;
  };
  readonly extensionRequest: {
    /** {requester} {title} */
    readonly subject: string;
    readonly heading: string;
    /** {requester} {title} {date} */
    readonly body: string;
    /** {hours} */
    readonly approveInfo: string;
    /** {hours} */
    readonly button: string;
    readonly ignore: string;
    readonly footer: string;
  };
  readonly extensionGranted: {
    /** {hours} {title} */
    readonly subject: string;
    /** {hours} */
    readonly heading: string;
    /** {sender} {title} {date} */
    readonly bodyWithSender: string;
    /** {title} {date} */
    readonly body: string;
    readonly footer: string;
  };
  readonly passwordReset: {
    readonly subject: string;
    readonly heading: string;
    readonly intro: string;
    readonly button: string;
    /** {count} minutes */
    readonly validity: Plural;
    readonly ignore: string;
    readonly footer: string;
  };
}

const en: MailStrings = {
  locale: 'en-GB',
  colon: ':',
  fileCount: { one: '{count} file', other: '{count} files' },
  andMore: { one: 'and {count} more', other: 'and {count} more' },
  filesSummary: '{files} · {size}',
  orCopyLink: 'Or copy this link into your browser:',
  availableUntil: 'The files are available until {date}.',
  downloadButton: 'Download files',
  transfer: {
    subject: '{sender} sent you {what} via SendBridge',
    heading: '{sender} sent you {what}',
    messageLabel: 'Message',
    password: `${TEXTS.download401} {sender} will share the password with you.`,
    footer: 'You received this email because {sender} sent you files with SendBridge.',
  },
  transferSent: {
    subjectOne: 'Your files were sent to {first}',
    subjectMany: 'Your files were sent to {first} and {others}',
    others: { one: '{count} other', other: '{count} others' },
    heading: 'Your transfer is on its way',
    sentTo: 'We emailed the download link to:',
    button: 'Open download page',
    notify: "We'll let you know when your files get downloaded.",
    footer: 'You received this email because you sent files with SendBridge.',
  },
  senderCode: {
    subject: '{code} is your SendBridge verification code',
    heading: 'Verify your email',
    intro: 'Enter this code to confirm your email address and send your files:',
    validity: { one: 'The code is valid for {count} minute.', other: 'The code is valid for {count} minutes.' },
    ignore: "If you didn't ask for this code, you can ignore this email. Nothing will be sent.",
    footer: 'You received this email because this address was entered as the sender on SendBridge.',
  },
  downloadNotice: {
    subject: '{who} downloaded {what}',
    heading: '{who} downloaded {what}',
    someone: 'Someone',
    allFiles: 'all files (ZIP)',
    whenLabel: 'When',
    whereLabel: 'Where',
    unknownLocation: 'An unknown location',
    button: 'View transfer',
    footer: 'You received this email because you sent these files with SendBridge.',
  },
  extensionRequest: {
    subject: '{requester} is asking for more time to download “{title}”',
    heading: 'A recipient needs more time',
    body: '{requester} asked you to extend “{title}”, which expired on {date}.',
    approveInfo: 'If you approve, the download link will work again for {hours} hours.',
    button: 'Extend by {hours} hours',
    ignore: "If you'd rather not extend it, just ignore this email.",
    footer: 'You received this email because a recipient of your SendBridge transfer asked for more time.',
  },
  extensionGranted: {
    subject: 'You have {hours} more hours to download “{title}”',
    heading: TEXTS.linkExtended.replace('48', '{hours}'),
    bodyWithSender: '{sender} extended the link to “{title}”. You can download the files until {date}.',
    body: 'The sender extended the link to “{title}”. You can download the files until {date}.',
    footer: 'You received this email because you asked for more time to download files on SendBridge.',
  },
  passwordReset: {
    subject: 'Reset your SendBridge password',
    heading: 'Reset your password',
    intro: 'Someone asked to reset the SendBridge password for this email address.',
    button: 'Reset password',
    validity: { one: 'The link works once, for {count} minute.', other: 'The link works once, for {count} minutes.' },
    ignore: "If you didn't ask for this, ignore this email and your password will stay the same.",
    footer: 'You received this email because a password reset was requested for this address on SendBridge.',
  },
};

const es: MailStrings = {
  locale: 'es-ES',
  colon: ':',
  fileCount: { one: '{count} archivo', other: '{count} archivos' },
  andMore: { one: 'y {count} más', other: 'y {count} más' },
  filesSummary: '{files} · {size}',
  orCopyLink: 'O copia este enlace en tu navegador:',
  availableUntil: 'Los archivos estarán disponibles hasta el {date}.',
  downloadButton: 'Descargar archivos',
  transfer: {
    subject: '{sender} te ha enviado {what} con SendBridge',
    heading: '{sender} te ha enviado {what}',
    messageLabel: 'Mensaje',
    password: 'Este envío está protegido con contraseña. {sender} te la facilitará por separado.',
    footer: 'Recibes este correo porque {sender} te ha enviado archivos con SendBridge.',
  },
  transferSent: {
    subjectOne: 'Tus archivos se han enviado a {first}',
    subjectMany: 'Tus archivos se han enviado a {first} y {others}',
    others: { one: '{count} persona más', other: '{count} personas más' },
    heading: 'Tu envío está en camino',
    sentTo: 'Hemos enviado el enlace de descarga a:',
    button: 'Abrir la página de descarga',
    notify: 'Te avisaremos cuando se descarguen tus archivos.',
    footer: 'Recibes este correo porque has enviado archivos con SendBridge.',
  },
  senderCode: {
    subject: '{code} es tu código de verificación de SendBridge',
    heading: 'Confirma tu correo electrónico',
    intro: 'Introduce este código para confirmar tu dirección y enviar tus archivos:',
    validity: { one: 'El código es válido durante {count} minuto.', other: 'El código es válido durante {count} minutos.' },
    ignore: 'Si no has pedido este código, puedes ignorar este correo. No se enviará nada.',
    footer: 'Recibes este correo porque alguien indicó esta dirección como remitente en SendBridge.',
  },
  downloadNotice: {
    subject: '{who} ha descargado {what}',
    heading: '{who} ha descargado {what}',
    someone: 'Alguien',
    allFiles: 'todos los archivos (ZIP)',
    whenLabel: 'Cuándo',
    whereLabel: 'Dónde',
    unknownLocation: 'Ubicación desconocida',
    button: 'Ver el envío',
    footer: 'Recibes este correo porque enviaste estos archivos con SendBridge.',
  },
  extensionRequest: {
    subject: '{requester} pide más tiempo para descargar «{title}»',
    heading: 'Un destinatario necesita más tiempo',
    body: '{requester} te pide que amplíes el plazo de «{title}», que caducó el {date}.',
    approveInfo: 'Si lo apruebas, el enlace de descarga volverá a funcionar durante {hours} horas.',
    button: 'Ampliar {hours} horas',
    ignore: 'Si prefieres no ampliarlo, simplemente ignora este correo.',
    footer: 'Recibes este correo porque un destinatario de tu envío de SendBridge ha pedido más tiempo.',
  },
  extensionGranted: {
    subject: 'Tienes {hours} horas más para descargar «{title}»',
    heading: 'Enlace ampliado durante {hours} horas',
    bodyWithSender: '{sender} ha ampliado el enlace de «{title}». Puedes descargar los archivos hasta el {date}.',
    body: 'El remitente ha ampliado el enlace de «{title}». Puedes descargar los archivos hasta el {date}.',
    footer: 'Recibes este correo porque pediste más tiempo para descargar archivos en SendBridge.',
  },
  passwordReset: {
    subject: 'Restablece tu contraseña de SendBridge',
    heading: 'Restablece tu contraseña',
    intro: 'Alguien ha pedido restablecer la contraseña de SendBridge de esta dirección de correo.',
    button: 'Restablecer contraseña',
    validity: {
      one: 'El enlace solo se puede usar una vez y funciona durante {count} minuto.',
      other: 'El enlace solo se puede usar una vez y funciona durante {count} minutos.',
    },
    ignore: 'Si no lo has pedido tú, ignora este correo y tu contraseña seguirá siendo la misma.',
    footer: 'Recibes este correo porque se ha pedido restablecer la contraseña de esta dirección en SendBridge.',
  },
};

// French typography: a no-break space before ':' and inside « ».
const NBSP = '\u00a0';

const fr: MailStrings = {
  locale: 'fr-FR',
  colon: `${NBSP}:`,
  fileCount: { one: '{count} fichier', other: '{count} fichiers' },
  byteUnits: { B: 'o', KB: 'ko', MB: 'Mo', GB: 'Go', TB: 'To', PB: 'Po' },
  andMore: { one: 'et {count} autre', other: 'et {count} autres' },
  filesSummary: '{files} · {size}',
  orCopyLink: `Ou copiez ce lien dans votre navigateur${NBSP}:`,
  availableUntil: 'Les fichiers sont disponibles jusqu’au {date}.',
  downloadButton: 'Télécharger les fichiers',
  transfer: {
    subject: '{sender} vous a envoyé {what} via SendBridge',
    heading: '{sender} vous a envoyé {what}',
    messageLabel: 'Message',
    password: `Ce transfert est protégé par un mot de passe${NBSP}: {sender} vous le communiquera.`,
    footer: 'Vous recevez cet e-mail car {sender} vous a envoyé des fichiers avec SendBridge.',
  },
  transferSent: {
    subjectOne: 'Vos fichiers ont été envoyés à {first}',
    subjectMany: 'Vos fichiers ont été envoyés à {first} et {others}',
    others: { one: '{count} autre destinataire', other: '{count} autres destinataires' },
    heading: 'Votre transfert est en route',
    sentTo: `Nous avons envoyé le lien de téléchargement à${NBSP}:`,
    button: 'Ouvrir la page de téléchargement',
    notify: 'Nous vous préviendrons dès que vos fichiers seront téléchargés.',
    footer: 'Vous recevez cet e-mail car vous avez envoyé des fichiers avec SendBridge.',
  },
  senderCode: {
    subject: '{code} est votre code de vérification SendBridge',
    heading: 'Confirmez votre adresse e-mail',
    intro: `Saisissez ce code pour confirmer votre adresse et envoyer vos fichiers${NBSP}:`,
    validity: { one: 'Ce code est valable {count} minute.', other: 'Ce code est valable {count} minutes.' },
    ignore: 'Si vous n’avez pas demandé ce code, ignorez simplement cet e-mail. Rien ne sera envoyé.',
    footer: 'Vous recevez cet e-mail car cette adresse a été indiquée comme expéditeur sur SendBridge.',
  },
  downloadNotice: {
    subject: '{who} a téléchargé {what}',
    heading: '{who} a téléchargé {what}',
    someone: 'Quelqu’un',
    allFiles: 'tous les fichiers (ZIP)',
    whenLabel: 'Quand',
    whereLabel: 'Où',
    unknownLocation: 'Lieu inconnu',
    button: 'Voir le transfert',
    footer: 'Vous recevez cet e-mail car vous avez envoyé ces fichiers avec SendBridge.',
  },
  extensionRequest: {
    subject: `{requester} demande plus de temps pour télécharger «${NBSP}{title}${NBSP}»`,
    heading: 'Un destinataire a besoin de plus de temps',
    body: `{requester} vous demande de prolonger «${NBSP}{title}${NBSP}», qui a expiré le {date}.`,
    approveInfo: `Si vous acceptez, le lien de téléchargement fonctionnera de nouveau pendant {hours}${NBSP}heures.`,
    button: `Prolonger de {hours}${NBSP}heures`,
    ignore: 'Si vous ne souhaitez pas le prolonger, ignorez simplement cet e-mail.',
    footer: 'Vous recevez cet e-mail car un destinataire de votre transfert SendBridge a demandé plus de temps.',
  },
  extensionGranted: {
    subject: `Vous avez {hours}${NBSP}heures de plus pour télécharger «${NBSP}{title}${NBSP}»`,
    heading: `Lien prolongé de {hours}${NBSP}heures`,
    bodyWithSender: `{sender} a prolongé le lien vers «${NBSP}{title}${NBSP}». Vous pouvez télécharger les fichiers jusqu’au {date}.`,
    body: `L’expéditeur a prolongé le lien vers «${NBSP}{title}${NBSP}». Vous pouvez télécharger les fichiers jusqu’au {date}.`,
    footer: 'Vous recevez cet e-mail car vous avez demandé plus de temps pour télécharger des fichiers sur SendBridge.',
  },
  passwordReset: {
    subject: 'Réinitialisez votre mot de passe SendBridge',
    heading: 'Réinitialisez votre mot de passe',
    intro: 'Quelqu’un a demandé la réinitialisation du mot de passe SendBridge associé à cette adresse e-mail.',
    button: 'Réinitialiser le mot de passe',
    validity: {
      one: 'Ce lien ne fonctionne qu’une seule fois, pendant {count} minute.',
      other: 'Ce lien ne fonctionne qu’une seule fois, pendant {count} minutes.',
    },
    ignore: `Si vous n’êtes pas à l’origine de cette demande, ignorez cet e-mail${NBSP}: votre mot de passe restera inchangé.`,
    footer: 'Vous recevez cet e-mail car une réinitialisation du mot de passe a été demandée pour cette adresse sur SendBridge.',
  },
};

const de: MailStrings = {
  locale: 'de-DE',
  colon: ':',
  fileCount: { one: '{count} Datei', other: '{count} Dateien' },
  andMore: { one: 'und {count} weitere', other: 'und {count} weitere' },
  filesSummary: '{files} · {size}',
  orCopyLink: 'Oder kopieren Sie diesen Link in Ihren Browser:',
  availableUntil: 'Die Dateien sind bis zum {date} verfügbar.',
  downloadButton: 'Dateien herunterladen',
  transfer: {
    subject: '{sender} hat Ihnen {what} über SendBridge geschickt',
    heading: '{sender} hat Ihnen {what} geschickt',
    messageLabel: 'Nachricht',
    password: 'Diese Übertragung ist passwortgeschützt. Das Passwort erhalten Sie separat von {sender}.',
    footer: 'Sie erhalten diese E-Mail, weil {sender} Ihnen über SendBridge Dateien geschickt hat.',
  },
  transferSent: {
    subjectOne: 'Ihre Dateien wurden an {first} gesendet',
    subjectMany: 'Ihre Dateien wurden an {first} und {others} gesendet',
    others: { one: '{count} weiteren Empfänger', other: '{count} weitere Empfänger' },
    heading: 'Ihre Übertragung ist unterwegs',
    sentTo: 'Wir haben den Download-Link an diese Adressen gesendet:',
    button: 'Download-Seite öffnen',
    notify: 'Wir sagen Ihnen Bescheid, sobald Ihre Dateien heruntergeladen werden.',
    footer: 'Sie erhalten diese E-Mail, weil Sie über SendBridge Dateien gesendet haben.',
  },
  senderCode: {
    subject: '{code} ist Ihr SendBridge-Bestätigungscode',
    heading: 'Bestätigen Sie Ihre E-Mail-Adresse',
    intro: 'Geben Sie diesen Code ein, um Ihre Adresse zu bestätigen und Ihre Dateien zu senden:',
    validity: { one: 'Der Code ist {count} Minute lang gültig.', other: 'Der Code ist {count} Minuten lang gültig.' },
    ignore: 'Falls Sie diesen Code nicht angefordert haben, können Sie diese E-Mail ignorieren. Es wird nichts gesendet.',
    footer: 'Sie erhalten diese E-Mail, weil diese Adresse bei SendBridge als Absender angegeben wurde.',
  },
  downloadNotice: {
    subject: '{who} hat {what} heruntergeladen',
    heading: '{who} hat {what} heruntergeladen',
    someone: 'Jemand',
    allFiles: 'alle Dateien (ZIP)',
    whenLabel: 'Wann',
    whereLabel: 'Wo',
    unknownLocation: 'Unbekannter Ort',
    button: 'Übertragung ansehen',
    footer: 'Sie erhalten diese E-Mail, weil Sie diese Dateien über SendBridge gesendet haben.',
  },
  extensionRequest: {
    subject: '{requester} bittet um mehr Zeit für den Download von „{title}“',
    heading: 'Ein Empfänger braucht mehr Zeit',
    body: '{requester} bittet Sie, „{title}“ zu verlängern. Die Übertragung ist am {date} abgelaufen.',
    approveInfo: 'Wenn Sie zustimmen, funktioniert der Download-Link wieder für {hours} Stunden.',
    button: 'Um {hours} Stunden verlängern',
    ignore: 'Wenn Sie nicht verlängern möchten, ignorieren Sie diese E-Mail einfach.',
    footer: 'Sie erhalten diese E-Mail, weil ein Empfänger Ihrer SendBridge-Übertragung um mehr Zeit gebeten hat.',
  },
  extensionGranted: {
    subject: 'Sie haben {hours} Stunden mehr Zeit für den Download von „{title}“',
    heading: 'Link um {hours} Stunden verlängert',
    bodyWithSender: '{sender} hat den Link zu „{title}“ verlängert. Sie können die Dateien bis zum {date} herunterladen.',
    body: 'Der Absender hat den Link zu „{title}“ verlängert. Sie können die Dateien bis zum {date} herunterladen.',
    footer: 'Sie erhalten diese E-Mail, weil Sie um mehr Zeit für den Download von Dateien bei SendBridge gebeten haben.',
  },
  passwordReset: {
    subject: 'Setzen Sie Ihr SendBridge-Passwort zurück',
    heading: 'Setzen Sie Ihr Passwort zurück',
    intro: 'Jemand hat angefordert, das SendBridge-Passwort für diese E-Mail-Adresse zurückzusetzen.',
    button: 'Passwort zurücksetzen',
    validity: {
      one: 'Der Link funktioniert nur einmal und ist {count} Minute lang gültig.',
      other: 'Der Link funktioniert nur einmal und ist {count} Minuten lang gültig.',
    },
    ignore: 'Falls Sie das nicht angefordert haben, ignorieren Sie diese E-Mail. Ihr Passwort bleibt unverändert.',
    footer: 'Sie erhalten diese E-Mail, weil für diese Adresse bei SendBridge das Zurücksetzen des Passworts angefordert wurde.',
  },
};

export const MAIL_STRINGS: Readonly<Record<MailLanguage, MailStrings>> = { en, es, fr, de };

/** Copy for a language; anything outside MAIL_LANGUAGES (a raw value slipping through) reads English. */
export function stringsFor(lang: string): MailStrings {
  return MAIL_STRINGS[mailLanguageOf(lang)];
}
