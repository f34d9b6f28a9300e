/**
 * The image captcha (spec "Image captcha"): a ticket (GUID v7) whose plaintext answer is cached for 2 minutes,
 * and its verification, which takes the ticket atomically so that it is consumed by the first guess, right or
 * wrong. Missing, expired or consumed → 40002; wrong (case-insensitive) → 40003.
 */
import { randomInt } from 'node:crypto';
import {
  BusinessError,
  type CaptchaType,
  constantTimeEqual,
  ErrorCode,
  guidV7,
  randomString,
} from '@svc/kernel';
import type { ClockStore } from '../clock-store.js';
import { CAPTCHA_ALPHABET, CAPTCHA_LENGTH, CAPTCHA_TTL_MS, MFA_KEYS } from '../constants.js';
import { renderCaptchaSvg } from './svg.js';

/** What `GET /api/v1/auth/captcha` answers. */
export interface IssuedCaptcha {
  captchaId: string;
  /** A complete SVG document. */
  svg: string;
  type: CaptchaType;
}

export interface CaptchaService {
  /** Draws a new captcha of `type` and caches its answer. */
  issue(type: CaptchaType): Promise<IssuedCaptcha>;
  /** Consumes the ticket; throws 40002 (missing, expired, consumed) or 40003 (wrong). */
  verify(captchaId: string | undefined, answer: string | undefined): Promise<void>;
}

interface Ticket {
  answer: string;
}

/** The answer as compared: trimmed, upper-case (the spec's comparison is case-insensitive). */
const canonical = (s: string) => s.trim().toUpperCase();

/** An arithmetic question with a small non-negative answer that anyone can do in their head. */
function mathQuestion(): { text: string; answer: string } {
  const op = (['+', '-', '×'] as const)[randomInt(0, 3)];
  let a = randomInt(1, 10);
  let b = randomInt(1, 10);
  if (op === '-' && b > a) [a, b] = [b, a];
  const value = op === '+' ? a + b : op === '-' ? a - b : a * b;
  return { text: `${a}${op}${b}=?`, answer: String(value) };
}

export function createCaptchaService(deps: { store: ClockStore }): CaptchaService {
  const { store } = deps;
  return {
    async issue(type) {
      let text: string;
      let answer: string;
      if (type === 'math') {
        ({ text, answer } = mathQuestion());
      } else {
        text = randomString(CAPTCHA_LENGTH, CAPTCHA_ALPHABET);
        answer = text;
      }
      const svg = renderCaptchaSvg(text, type === 'path' ? 'wavy' : 'bold');
      const captchaId = guidV7(store.nowMs());
      await store.put<Ticket>(`${MFA_KEYS.captcha}${captchaId}`, { answer }, CAPTCHA_TTL_MS);
      return { captchaId, svg, type };
    },

    async verify(captchaId, answer) {
      // A ticket id is a GUID; anything longer is not one and is not looked up.
      if (!captchaId || captchaId.length > 64) throw new BusinessError(ErrorCode.CaptchaExpired);
      const ticket = await store.take<Ticket & { expiresAt: number }>(`${MFA_KEYS.captcha}${captchaId}`);
      if (!ticket) throw new BusinessError(ErrorCode.CaptchaExpired);
      if (!constantTimeEqual(canonical(answer ?? ''), canonical(ticket.answer))) {
        throw new BusinessError(ErrorCode.CaptchaWrong);
      }
    },
  };
}
