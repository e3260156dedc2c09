/**
 * pdf.js's worker for the sender's PDF thumbnails, bundled by Vite as a script of the app's own
 * origin (the CSP's worker-src 'self'); the library starts listening on its own when loaded.
 */
import 'pdfjs-dist/build/pdf.worker.min.mjs';
