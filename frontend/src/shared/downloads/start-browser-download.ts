/**
 * Hands a presigned URL to the browser by following a hidden link. The object is served with
 * Content-Disposition: attachment, so the browser saves it and the page (with the password
 * the visitor typed) stays where it is.
 */
export function startBrowserDownload(url: string): void {
  const link = document.createElement('a');
  link.href = url;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
}
