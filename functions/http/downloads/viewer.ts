import type { HttpRequest, Schemas } from '../../lib/http';
import type { Viewer } from '../../services/downloads';

/** Who is asking: password and recipient id from the body, address and CloudFront country from the request. */
export function viewerOf(
  req: HttpRequest<Schemas>,
  body: { password?: string | undefined; recipient?: string | undefined },
): Viewer {
  const country = req.header('cloudfront-viewer-country');
  return {
    sourceIp: req.sourceIp,
    ...(body.password ? { password: body.password } : {}),
    ...(body.recipient ? { recipient: body.recipient } : {}),
    ...(country ? { viewerCountry: country } : {}),
  };
}
