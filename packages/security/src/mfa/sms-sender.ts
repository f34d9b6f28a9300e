/**
 * Where SMS codes go. The sender is replaceable (a consumer plugs in its SMS gateway); the default only
 * writes the code to the backend log, as the spec says, in one line an operator can grep:
 * `[SMS] purpose=<mfa|login|phone> phone=<number> code=<code>`.
 */
import type { Logger } from '@svc/kernel';

/** Why a code is sent: the second factor after a password, passwordless SMS login, or a new number to confirm. */
export type SmsPurpose = 'mfa' | 'login' | 'phone';

export interface SmsMessage {
  purpose: SmsPurpose;
  /** The number as stored on the user. */
  phone: string;
  code: string;
}

export interface SmsSender {
  /** Delivers one code; a rejection answers the request with a 500 (the code stays valid for a resend). */
  send(message: SmsMessage): Promise<void>;
}

/** The default sender: one information line on the given logger (category `Service.Sms` in the host). */
export function createLogSmsSender(logger: Logger): SmsSender {
  return {
    async send({ purpose, phone, code }) {
      logger.info(`[SMS] purpose=${purpose} phone=${phone} code=${code}`);
    },
  };
}
