/**
 * Hands a presigned URL to the browser by following a hidden link. The object is served with
 * Content-Disposition: attachment, so the browser saves it and the page (with the password
 * the visitor typed) stays where it is. A blob URL made here names its file with `fileName`.
 */
export function startBrowserDownload(url: string, fileName?: string): void {
  const link = document.createElement('a');
  link.href = url;
  if (fileName) link.download = fileName;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
}
