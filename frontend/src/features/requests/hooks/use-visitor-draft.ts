import { useState } from 'react';
import { dedupeFiles, fileKey } from '@domain/file-filters';
import type { PickedFile } from '@/shared/upload/picked-files';
import type { VisitorDetails } from '../request-rules';

/**
 * What the visitor has put in the upload form: the files, who they are and their message, and
 * whether they tried to send (problems show from then on). It outlives the form's steps.
 */
export function useVisitorDraft() {
  const [files, setFiles] = useState<readonly PickedFile[]>([]);
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [message, setMessage] = useState('');
  const [tried, setTried] = useState(false);
  const details: VisitorDetails = { name, email, message };

  return {
    files,
    details,
    tried,
    setTried,
    setName,
    setEmail,
    setMessage,
    /** adds what is not in the list yet (by relative path or name) */
    add(incoming: readonly PickedFile[]) {
      setFiles((current) => {
        const { kept } = dedupeFiles(incoming, current);
        return kept.length ? [...current, ...kept] : current;
      });
    },
    remove(key: string) {
      setFiles((current) => current.filter((f) => fileKey(f) !== key));
    },
    /** "Upload more": the same visitor, no files, no message */
    startOver() {
      setFiles([]);
      setMessage('');
      setTried(false);
    },
  };
}

export type VisitorDraft = ReturnType<typeof useVisitorDraft>;
