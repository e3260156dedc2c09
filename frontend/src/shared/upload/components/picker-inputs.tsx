import type { ChangeEvent, RefObject } from 'react';

/** The folder picker attribute has no React prop; set it on the element. */
function folderPicker(input: HTMLInputElement | null) {
  input?.setAttribute('webkitdirectory', '');
  input?.setAttribute('directory', '');
}

/** The hidden file and folder inputs behind a form's picker buttons (which click them). */
export function PickerInputs({
  fileInput,
  folderInput,
  onPicked,
  fileTestId,
  folderTestId,
}: {
  fileInput: RefObject<HTMLInputElement | null>;
  folderInput: RefObject<HTMLInputElement | null>;
  onPicked: (event: ChangeEvent<HTMLInputElement>) => void;
  fileTestId: string;
  folderTestId?: string;
}) {
  return (
    <>
      <input ref={fileInput} type="file" multiple hidden onChange={onPicked} tabIndex={-1} data-testid={fileTestId} />
      <input
        ref={(el) => {
          folderInput.current = el;
          folderPicker(el);
        }}
        type="file"
        multiple
        hidden
        onChange={onPicked}
        tabIndex={-1}
        data-testid={folderTestId}
      />
    </>
  );
}
