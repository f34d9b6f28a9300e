/**
 * Signed view links of uploaded files (spec "Upload exposure rule"). The signature is HMAC-SHA256 under a key
 * derived from the JWT signing key for this purpose only (`deriveSubkey(key, 'file-view')`), over the id text
 * and, when `Upload:SignedUrlTtlMinutes` > 0, the expiry (Unix seconds): editing `exp` breaks the signature.
 * Links made without an expiry stop verifying as soon as a lifetime is configured. The check is constant-time
 * and runs before anything is looked up.
 */

import { createHmac } from 'node:crypto';
import { BusinessError, constantTimeEqual } from '@svc/kernel';
import { deriveSubkey } from '@svc/security';
import { UploadErrorCode } from './codes.js';

export interface FileLinkSigner {
  /** `/api/v1/sys/file/{id}/view?sig=…[&exp=…]`. */
  viewUrl(id: number): string;
  /** @throws BusinessError 44007 when the signature is missing, wrong or expired */
  verify(idText: string, sig: string | undefined, exp: string | undefined): void;
}

export interface FileLinkSignerOptions {
  jwtKey: Uint8Array;
  /** `Upload:SignedUrlTtlMinutes` (0 = links never expire). */
  ttlMinutes: number;
  now: () => Date;
}

export function createFileLinkSigner(options: FileLinkSignerOptions): FileLinkSigner {
  const key = deriveSubkey(options.jwtKey, 'file-view');
  const sign = (id: string, exp: string) =>
    createHmac('sha256', key).update(`file-view\n${id}\n${exp}`).digest('base64url');
  const nowSeconds = () => Math.floor(options.now().getTime() / 1000);

  return {
    viewUrl(id) {
      const base = `/api/v1/sys/file/${id}/view`;
      if (options.ttlMinutes <= 0) return `${base}?sig=${sign(String(id), '')}`;
      const exp = String(nowSeconds() + options.ttlMinutes * 60);
      return `${base}?sig=${sign(String(id), exp)}&exp=${exp}`;
    },

    verify(idText, sig, exp) {
      const limited = options.ttlMinutes > 0;
      const signedExp = limited ? (exp ?? '') : '';
      const good = constantTimeEqual(sign(idText, signedExp), sig ?? '');
      // An expiry sent where none is signed, or missing where one must be, fails like a wrong signature.
      const shapeOk = limited ? /^\d{1,12}$/.test(signedExp) : exp === undefined;
      if (!good || !shapeOk) throw new BusinessError(UploadErrorCode.FileSignatureInvalid);
      if (limited && Number(signedExp) < nowSeconds()) {
        throw new BusinessError(UploadErrorCode.FileSignatureInvalid, { expired: true });
      }
    },
  };
}
