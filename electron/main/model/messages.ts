import { text, type Text } from '../../common/i18n';
import type { ModelError, ModelErrorCode } from './backend';

/** Every error a backend reports, in Korean and English; each says what happened and what to do. */
export const M = {
  connect: (target: string, detail: string): Text =>
    text(
      `모델 서버에 연결할 수 없습니다: ${target} (${detail}). 서버가 켜져 있는지, 관리자에게 주소를 확인하세요.`,
      `Cannot connect to the model server: ${target} (${detail}). Check that it is running, and ask your administrator to confirm the address.`,
    ),
  http: (status: number, detail: string): Text =>
    text(`모델 서버가 요청을 거부했습니다 (HTTP ${status}): ${detail}`, `The model server refused the request (HTTP ${status}): ${detail}`),
  server: (detail: string): Text =>
    text(`모델 서버가 답변 도중 오류를 보냈습니다: ${detail}`, `The model server reported an error while answering: ${detail}`),
  truncated: (): Text =>
    text(
      '모델 서버와의 연결이 답변 도중 끊겼습니다. 받은 도구 호출은 실행하지 않았습니다. 다시 시도하세요.',
      'The connection to the model server closed before the answer ended. No tool call from it was executed. Try again.',
    ),
  length: (): Text =>
    text(
      '답변이 최대 토큰 수에서 잘렸습니다. 잘린 도구 호출은 실행하지 않았습니다. 요청을 나누거나 최대 토큰 수를 늘리세요.',
      'The answer was cut off at the token limit. No cut-off tool call was executed. Split the request or raise the token limit.',
    ),
  promptTruncated: (sent: number, evaluated: number, numCtx: number): Text =>
    text(
      `모델 서버가 프롬프트 일부를 버렸습니다 (보낸 약 ${sent} 토큰 중 ${evaluated} 토큰만 처리, num_ctx ${numCtx}). 도구 목록이나 지시가 빠졌을 수 있어 이 답변은 쓰지 않습니다. 관리자에게 컨텍스트 길이(OLLAMA_CONTEXT_LENGTH 또는 num_ctx)를 늘려 달라고 하세요.`,
      `The model server dropped part of the prompt (about ${sent} tokens sent, ${evaluated} evaluated, num_ctx ${numCtx}). Tools or instructions may be missing, so this answer is not used. Ask your administrator to raise the context length (OLLAMA_CONTEXT_LENGTH or num_ctx).`,
    ),
  protocol: (detail: string): Text =>
    text(`모델 서버의 응답을 읽을 수 없습니다: ${detail}`, `Cannot read the model server's answer: ${detail}`),
  aborted: (): Text => text('생성을 중지했습니다.', 'Generation was stopped.'),
  badArguments: (name: string, detail: string): Text =>
    text(
      `도구 '${name}' 호출의 인수가 올바른 JSON 객체가 아닙니다 (${detail}). 도구는 실행하지 않았습니다.`,
      `The arguments of the call to '${name}' are not a valid JSON object (${detail}). The tool was not executed.`,
    ),
  badCallShape: (detail: string): Text =>
    text(
      `도구 호출 형식을 해석할 수 없습니다 (${detail}). 도구는 실행하지 않았습니다.`,
      `The tool call could not be parsed (${detail}). The tool was not executed.`,
    ),
  modelFile: (path: string, detail: string): Text =>
    text(`모델 파일을 쓸 수 없습니다: ${path} — ${detail}`, `The model file cannot be used: ${path} — ${detail}`),
  engine: (detail: string): Text =>
    text(`내장 모델 엔진이 실패했습니다: ${detail}`, `The embedded model engine failed: ${detail}`),
};

export function modelError(code: ModelErrorCode, message: Text): ModelError {
  return { code, message };
}

/** Short detail of an unknown thrown value, for messages. */
export function detailOf(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as { cause?: unknown }).cause;
    const causeCode = cause && typeof cause === 'object' ? (cause as { code?: unknown }).code : undefined;
    const causeMsg = cause instanceof Error ? cause.message : undefined;
    return [error.message, typeof causeCode === 'string' ? causeCode : undefined, causeMsg && causeMsg !== error.message ? causeMsg : undefined]
      .filter(Boolean)
      .join(': ');
  }
  return String(error);
}

/** Pulls a message out of an error body: `{error:{message}}`, `{error:"…"}`, `{message}`, or text. */
export function errorBodyDetail(body: unknown, fallback: string): string {
  if (body && typeof body === 'object') {
    const err = (body as { error?: unknown }).error;
    if (typeof err === 'string') return err;
    if (err && typeof err === 'object') {
      const msg = (err as { message?: unknown }).message;
      if (typeof msg === 'string') return msg;
      return JSON.stringify(err).slice(0, 500);
    }
    const msg = (body as { message?: unknown }).message;
    if (typeof msg === 'string') return msg;
  }
  if (typeof body === 'string' && body.trim()) return body.trim().slice(0, 500);
  return fallback.slice(0, 500);
}
