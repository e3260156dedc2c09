import { useRef, useState, type DragEvent } from 'react';
import { entriesOfDrop, filesFromEntries, pickedFromFiles, type PickedFile } from './picked-files';

/** What a drop zone spreads on its element, and whether files are being dragged over it. */
export interface FileDrop {
  readonly dragging: boolean;
  readonly handlers: {
    onDragEnter(event: DragEvent): void;
    onDragOver(event: DragEvent): void;
    onDragLeave(): void;
    onDrop(event: DragEvent): void;
  };
}

/**
 * Files and folders dropped on an element: plain files at once, a folder's files once read
 * (its unreadable ones by name). Only a drag that carries files counts; the enter/leave depth
 * keeps the overlay up while the pointer crosses the zone's children.
 */
export function useFileDrop(onFiles: (files: PickedFile[]) => void, onUnreadable: (names: string[]) => void): FileDrop {
  const [dragging, setDragging] = useState(false);
  const depth = useRef(0);
  return {
    dragging,
    handlers: {
      onDragEnter(event) {
        if (!event.dataTransfer.types.includes('Files')) return;
        event.preventDefault();
        depth.current += 1;
        setDragging(true);
      },
      onDragOver(event) {
        if (event.dataTransfer.types.includes('Files')) event.preventDefault();
      },
      onDragLeave() {
        depth.current = Math.max(0, depth.current - 1);
        if (depth.current === 0) setDragging(false);
      },
      onDrop(event) {
        event.preventDefault();
        depth.current = 0;
        setDragging(false);
        const { entries, plainFiles } = entriesOfDrop(event.dataTransfer);
        if (plainFiles.length) onFiles(pickedFromFiles(plainFiles));
        if (entries.length) {
          void filesFromEntries(entries).then(({ files, unreadable }) => {
            if (files.length) onFiles(files);
            if (unreadable.length) onUnreadable(unreadable);
          });
        }
      },
    },
  };
}
