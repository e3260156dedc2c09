import type { HttpRequest, Schemas } from '../../lib/http';
import type { Viewer } from '../../services/downloads';

/** Who is asking: password, recipient id and verified session from the body, address and CloudFront country from the request. */
export function viewerOf(
  req: HttpRequest<Schemas>,
  body: { password?: string | undefined; recipient?: string | undefined; access?: string | undefined },
): Viewer {
  const country = req.header('cloudfront-viewer-country');
  return {
    sourceIp: req.sourceIp,
    ...(body.password ? { password: body.password } : {}),
    ...(body.recipient ? { recipient: body.recipient } : {}),
    ...(body.access ? { access: body.access } : {}),
    ...(country ? { viewerCountry: country } : {}),
  };
}
