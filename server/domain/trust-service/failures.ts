import { errorText } from "@/i18n/error-text";
import { UnprocessableError, UpstreamError, type DomainError } from "@/server/domain/errors";
import { CscTokenError } from "./csc-token";
import { CscCallError } from "./csc-transport";

/**
 * A failed call of the trust service as the domain error the caller sees (never a 500): what the
 * service refused is a 422 in words (the signer's one-time password or PIN, the organisation's
 * client, anything else with the service's own description); a service that cannot be asked or
 * fails itself is a 503 (retry later), an answer that is not the CSC API's a 502.
 */
export function trustServiceFailure(error: unknown): DomainError | unknown {
  if (!(error instanceof CscCallError)) return error;
  const detail = error.description ?? error.error ?? error.message;
  if (error.kind === "unavailable") return new UpstreamError(errorText("trustService.unavailable", { detail: error.message }), true, "trust_service");
  if (error.kind === "malformed") return new UpstreamError(errorText("trustService.malformed", { detail: error.message }), false, "trust_service");
  if (error.kind === "blocked") return new UnprocessableError(errorText("trustService.blocked", { detail: error.message }));
  if (error instanceof CscTokenError) return new UnprocessableError(errorText("trustService.clientRefused", { detail }));
  const said = `${error.error ?? ""} ${error.description ?? ""}`;
  if (error.error === "invalid_otp" || /\bOTP\b|one-time password/i.test(said)) return new UnprocessableError(errorText("trustService.otpRefused"), { otp: [errorText("trustService.otpRefused")] });
  if (error.error === "invalid_pin" || /\bPIN\b/.test(said)) return new UnprocessableError(errorText("trustService.pinRefused"), { pin: [errorText("trustService.pinRefused")] });
  if (/\bSAD\b/.test(said)) return new UnprocessableError(errorText("trustService.authorisationRefused", { detail }));
  return new UnprocessableError(errorText("trustService.refused", { detail }));
}

/** Runs a call of the trust service; its failure as trustServiceFailure says. */
export async function askTrustService<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw trustServiceFailure(error);
  }
}
