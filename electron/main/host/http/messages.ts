import { text, type Text } from '../../../common/i18n';

/**
 * What the model is told when a request is refused or fails, Korean first (SPEC G-SIGNPOST: every
 * refusal says what to do instead; small models treat these texts as their next prompt).
 */

/** Long URLs (a model can produce kilobytes of query string) are cut for messages only. */
const MAX_SHOWN_URL = 300;
/** Enough prefixes to orient the model without flooding its context. */
const MAX_SHOWN_PREFIXES = 10;

export function shownUrl(url: string): string {
  return url.length > MAX_SHOWN_URL ? `${url.slice(0, MAX_SHOWN_URL)}…` : url;
}

function prefixList(prefixes: readonly string[]): string {
  const shown = prefixes.slice(0, MAX_SHOWN_PREFIXES).join(', ');
  return prefixes.length > MAX_SHOWN_PREFIXES ? `${shown}, … (+${prefixes.length - MAX_SHOWN_PREFIXES})` : shown;
}

const noPrefixes = text(
  '정책에 허용된 HTTP 주소가 없습니다(http.allow가 비어 있음). 필요한 주소를 정책의 http.allow에 추가해 달라고 관리자에게 요청하세요.',
  'The policy allows no HTTP addresses (http.allow is empty). Ask the administrator to add the address you need to http.allow in the policy.',
);

export const httpMessages = {
  invalidUrl(url: string, prefixes: readonly string[]): Text {
    const ko = `'${shownUrl(url)}'은(는) 올바른 URL이 아닙니다. http:// 또는 https://로 시작하는 전체 주소를 쓰세요`;
    const en = `'${shownUrl(url)}' is not a valid URL. Write a full address starting with http:// or https://`;
    if (prefixes.length === 0) return text(`${ko}.`, `${en}.`);
    return text(`${ko}(허용된 주소: ${prefixList(prefixes)}).`, `${en} (allowed: ${prefixList(prefixes)}).`);
  },

  scheme(url: string, protocol: string): Text {
    return text(
      `${protocol} 주소는 요청할 수 없습니다: ${shownUrl(url)}. http://와 https://만 됩니다. 파일은 filesystem.read로 읽으세요.`,
      `${protocol} addresses cannot be requested: ${shownUrl(url)}. Only http:// and https:// work. Read files with filesystem.read.`,
    );
  },

  userinfo(url: string): Text {
    return text(
      `주소에 사용자 이름이나 비밀번호를 넣을 수 없습니다(기록에 남아 새어 나갑니다): ${shownUrl(url)}. 인증이 필요하면 headers의 Authorization을 쓰세요.`,
      `A URL may not contain a user name or password (it would leak into logs): ${shownUrl(url)}. If authentication is needed, use the Authorization header in headers.`,
    );
  },

  notAllowed(url: string, prefixes: readonly string[]): Text {
    if (prefixes.length === 0) return text(`${shownUrl(url)}: ${noPrefixes.ko}`, `${shownUrl(url)}: ${noPrefixes.en}`);
    const list = prefixList(prefixes);
    return text(
      `정책이 허용하지 않는 주소입니다: ${shownUrl(url)}. 허용된 주소: ${list}. 이 주소로 시작하는 URL만 요청할 수 있습니다. 다른 주소가 필요하면 관리자에게 정책의 http.allow에 추가해 달라고 요청하세요.`,
      `The policy does not allow this address: ${shownUrl(url)}. Allowed: ${list}. Only URLs starting with one of these can be requested. If you need another address, ask the administrator to add it to http.allow in the policy.`,
    );
  },

  redirectNotAllowed(from: string, to: string, why: Text): Text {
    return text(
      `${shownUrl(from)}이(가) ${shownUrl(to)}(으)로 리디렉션했지만 따라가지 않았습니다(그 주소로는 아무것도 보내지 않음). ${why.ko}`,
      `${shownUrl(from)} redirected to ${shownUrl(to)}, which was not followed (nothing was sent there). ${why.en}`,
    );
  },

  method(method: string, allowed: readonly string[]): Text {
    return text(
      `메서드 '${method}'은(는) 쓸 수 없습니다. ${allowed.join(', ')} 중 하나를 쓰세요.`,
      `Method '${method}' cannot be used. Use one of ${allowed.join(', ')}.`,
    );
  },

  managedHeader(name: string): Text {
    return text(
      `헤더 '${name}'은(는) 직접 지정할 수 없습니다(연결과 본문 길이는 Baram이 관리합니다). 이 헤더를 빼고 다시 요청하세요.`,
      `Header '${name}' cannot be set (Baram manages the connection and body length). Remove it and send the request again.`,
    );
  },

  headerName(name: string): Text {
    return text(
      `헤더 이름 '${shownUrl(name)}'이(가) 올바르지 않습니다. 영문자, 숫자와 '-' 같은 기호만 쓰세요(예: 'Accept').`,
      `Header name '${shownUrl(name)}' is not valid. Use letters, digits and symbols such as '-' only (e.g. 'Accept').`,
    );
  },

  headerValue(name: string): Text {
    return text(
      `헤더 '${name}'의 값에 쓸 수 없는 문자가 있습니다(줄바꿈, 제어 문자, 한글 등 ASCII 밖의 문자). 한글은 퍼센트 인코딩하거나 본문(body)에 넣으세요.`,
      `The value of header '${name}' contains characters a header cannot carry (line breaks, control characters, non-ASCII such as Hangul). Percent-encode such text or put it in the body.`,
    );
  },

  duplicateHeader(name: string): Text {
    return text(
      `헤더 '${name}'이(가) 대소문자만 달리하여 두 번 있습니다. 하나만 남기세요.`,
      `Header '${name}' appears twice (differing only in case). Keep one.`,
    );
  },

  tooManyHeaders(count: number, max: number, maxBytes: number): Text {
    return text(
      `요청 헤더가 너무 많거나 큽니다(${count}개; 최대 ${max}개, 합계 ${maxBytes} 바이트). 꼭 필요한 헤더만 보내세요.`,
      `Too many or too large request headers (${count}; at most ${max}, ${maxBytes} bytes in all). Send only the headers you need.`,
    );
  },

  bodyWithoutPayloadMethod(method: string): Text {
    return text(
      `${method} 요청에는 본문(body)을 보낼 수 없습니다. 본문을 보내려면 method를 POST(또는 PUT, PATCH)로 하세요.`,
      `A ${method} request cannot carry a body. To send a body, use method POST (or PUT, PATCH).`,
    );
  },

  bodyTooLarge(bytes: number, max: number): Text {
    return text(
      `요청 본문이 너무 큽니다(${bytes} 바이트, 최대 ${max} 바이트). 더 작게 나누어 보내세요.`,
      `The request body is too large (${bytes} bytes, at most ${max}). Send it in smaller parts.`,
    );
  },

  dns(host: string, code: string | null): Text {
    return text(
      `호스트 '${host}'의 이름을 찾을 수 없습니다(${code ?? 'DNS'}). 주소의 철자를 확인하세요.`,
      `The host name '${host}' could not be resolved (${code ?? 'DNS'}). Check the spelling of the address.`,
    );
  },

  connection(host: string, code: string | null): Text {
    return text(
      `${host}에 연결하지 못했거나 연결이 끊겼습니다(${code ?? '알 수 없음'}). 서버가 켜져 있는지 확인하거나 잠시 후 다시 시도하세요.`,
      `Could not connect to ${host}, or the connection broke (${code ?? 'unknown'}). Check that the server is up, or try again later.`,
    );
  },

  tls(host: string, code: string | null): Text {
    return text(
      `${host}의 HTTPS 인증서를 확인하지 못했습니다(${code ?? 'TLS'}). 확인되지 않은 연결은 쓰지 않습니다. 사내 인증서(CA) 설정을 관리자에게 요청하세요.`,
      `The HTTPS certificate of ${host} could not be verified (${code ?? 'TLS'}). Unverified connections are not used. Ask the administrator to configure the office certificate authority.`,
    );
  },

  timeout(ms: number): Text {
    const seconds = Math.round(ms / 100) / 10;
    return text(
      `${seconds}초 안에 응답을 다 받지 못해 중단했습니다. 더 작은 자료를 요청하거나(범위·페이지 지정) 잠시 후 다시 시도하세요.`,
      `The response did not complete within ${seconds} s and was stopped. Request less data (a range or a page) or try again later.`,
    );
  },

  aborted: text('요청이 취소되었습니다.', 'The request was cancelled.'),

  headersTooLarge(maxBytes: number): Text {
    return text(
      `서버의 응답 헤더가 너무 큽니다(최대 ${maxBytes} 바이트). 이 응답은 받을 수 없습니다.`,
      `The server's response headers are too large (at most ${maxBytes} bytes). This response cannot be received.`,
    );
  },

  tooManyRedirects(max: number, last: string): Text {
    return text(
      `리디렉션이 ${max}번을 넘어 중단했습니다(순환일 수 있음). 마지막 주소: ${shownUrl(last)}. 최종 주소를 직접 요청하세요.`,
      `Stopped after more than ${max} redirects (possibly a loop). Last address: ${shownUrl(last)}. Request the final address directly.`,
    );
  },

  badLocation(from: string): Text {
    return text(
      `${shownUrl(from)}이(가) 해석할 수 없는 리디렉션 주소를 보냈습니다. 따라가지 않았습니다.`,
      `${shownUrl(from)} sent a redirect address that cannot be parsed. It was not followed.`,
    );
  },

  badEncoding(encoding: string): Text {
    return text(
      `응답의 압축(Content-Encoding: ${encoding})을 풀 수 없습니다. 서버 응답이 손상되었습니다.`,
      `The response's compression (Content-Encoding: ${encoding}) could not be undone; the server's response is corrupt.`,
    );
  },

  protocol(host: string, code: string | null): Text {
    return text(
      `${host}의 응답이 HTTP 형식에 맞지 않습니다(${code ?? '형식 오류'}). 이 서버 주소가 맞는지 확인하세요.`,
      `The response of ${host} is not valid HTTP (${code ?? 'malformed'}). Check that this is the right server address.`,
    );
  },
};
