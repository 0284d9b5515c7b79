import { assertNever } from '../../common/assert-never';
import { text, type Text } from '../../common/i18n';

/**
 * URLs whose path a server may read differently from the prefix check (issue 14, class 10;
 * docs/2026-12-03-url-paths-refused-when-ambiguous.md). A prefix rule compares the path as parsed
 * here (WHATWG: `..`, `%2e%2e` and `\` already folded); a server decodes and normalises again:
 * nginx and IIS turn `%2F`/`%5C` into separators, Tomcat drops `;params` (`/wiki/..;/admin`), a
 * proxy in front may decode twice (`%252f`), old IIS accepted overlong UTF-8 (`%C0%AF`). So such
 * paths are refused before any prefix is compared, in the permission layer (URL subjects) and in
 * the HTTP client (first request and every redirect hop), with what to write instead. Allowlist
 * thinking: a path made of plain characters and well-formed UTF-8 escapes passes; the rest does not.
 *
 * Not refused, because both sides agree on them: plain `..` segments and `\` after parsing (folded
 * by the parser before the check, and sent folded), a default port written out (`:80` is dropped),
 * international host names (compared in their punycode form, so a look-alike is another host).
 */
export type UrlAmbiguityKind =
  | 'backslash'
  | 'userinfo'
  | 'encoded-separator'
  | 'encoded-dot'
  | 'double-encoding'
  | 'path-parameter'
  | 'bad-encoding'
  | 'control'
  | 'lookalike'
  | 'fragment-host';

export interface UrlAmbiguity {
  readonly kind: UrlAmbiguityKind;
  /** The offending piece as written (`%2F`, `;`, `\`). */
  readonly piece: string;
}

/** Escapes that decode to a separator or delimiter: `/` `\` `?` `#`. */
const SEPARATOR_ESCAPE = /%(?:2f|5c|3f|23)/i;
const DOT_ESCAPE = /%2e/i;
/** `%25` followed by two hex digits: a second layer of encoding. */
const DOUBLE_ESCAPE = /%25[0-9a-f]{2}/i;
/** NUL, CR, LF, TAB and the other C0 controls, DEL. */
const CONTROL_ESCAPE = /%(?:[01][0-9a-f]|7f)/i;

/** Slashes that NFKC leaves alone but best-fit mappings read as '/'. */
const LOOKALIKES = new Set(['\u2215', '\u2044', '\u29f8']);

/** The path part of a URL as written (absolute, scheme-relative or a relative Location value). */
function rawPathOf(raw: string): string {
  // The parser ignores surrounding white space; so does this.
  const withoutAuthority = raw.trim().replace(/^(?:[a-z][a-z0-9+.-]*:)?\/\/[^/?#\\]*/i, '');
  return withoutAuthority.split(/[?#]/, 1)[0] ?? '';
}

function pathAmbiguity(path: string): UrlAmbiguity | null {
  const first = (re: RegExp) => re.exec(path)?.[0];
  let piece = first(SEPARATOR_ESCAPE);
  if (piece) return { kind: 'encoded-separator', piece };
  if ((piece = first(DOUBLE_ESCAPE))) return { kind: 'double-encoding', piece };
  if ((piece = first(DOT_ESCAPE))) return { kind: 'encoded-dot', piece };
  if ((piece = first(CONTROL_ESCAPE))) return { kind: 'control', piece };
  if (path.includes(';')) return { kind: 'path-parameter', piece: ';' };
  let decoded: string;
  try {
    // Overlong forms (%C0%AF is '/'), surrogates, truncated sequences and a bare '%' all throw.
    decoded = decodeURIComponent(path);
  } catch {
    return { kind: 'bad-encoding', piece: /%(?![0-9a-f]{2})|%[89a-f][0-9a-f](?:%[89a-f][0-9a-f])*/i.exec(path)?.[0] ?? '%' };
  }
  // Full-width and other look-alikes of '/', '\\', '.', ';', '%': Windows' "best fit" code-page
  // mapping and NFKC-normalising frameworks turn them into the real ones after the check.
  for (const ch of decoded) {
    if (ch.charCodeAt(0) < 0x80) continue;
    if (LOOKALIKES.has(ch) || /[/\\.;%?#]/.test(ch.normalize('NFKC'))) return { kind: 'lookalike', piece: ch };
  }
  return null;
}

/**
 * What makes this URL ambiguous, or null. `raw` is the text as written (the model's argument or a
 * redirect's Location), checked too because the parser folds some forms before `url` shows them.
 */
export function urlAmbiguity(url: URL, raw?: string): UrlAmbiguity | null {
  if (raw !== undefined && raw.includes('\\')) return { kind: 'backslash', piece: '\\' };
  // The user name itself may be a token: never echoed.
  if (url.username !== '' || url.password !== '') return { kind: 'userinfo', piece: '***@' };
  // `http://evil.example#@intranet.example/` names one host to a reader and another to the parser.
  if (url.hash.includes('@')) return { kind: 'fragment-host', piece: url.hash };
  if (raw !== undefined) {
    const written = pathAmbiguity(rawPathOf(raw));
    if (written) return written;
  }
  return pathAmbiguity(url.pathname);
}

/** The URL with any user name and password replaced, for messages and records. */
export function urlWithoutCredentials(url: URL): string {
  if (!url.username && !url.password) return url.href;
  const copy = new URL(url.href);
  copy.username = '***';
  copy.password = '';
  return copy.href;
}

/** What the model is told (G-SIGNPOST), Korean first: what is wrong and what to write instead. */
export function ambiguousUrlMessage(shown: string, a: UrlAmbiguity): Text {
  const at = { ko: `주소 ${shown}`, en: `The address ${shown}` };
  switch (a.kind) {
    case 'backslash':
      return text(
        `${at.ko}에 역슬래시(\\)가 있어 서버마다 다르게 읽을 수 있으므로 보내지 않았습니다. 경로 구분에는 '/'를 쓰세요.`,
        `${at.en} contains a backslash (\\), which servers read differently, so it was not sent. Use '/' between path segments.`,
      );
    case 'userinfo':
      return text(
        `${at.ko}에는 '@' 앞에 사용자 이름(${a.piece})이 있습니다. 실제로 연결되는 곳은 '@' 뒤의 호스트입니다. 사용자 이름을 빼고 허용된 주소를 그대로 쓰세요(인증은 headers의 Authorization).`,
        `${at.en} has a user name before '@' (${a.piece}); the host actually contacted is the one after '@'. Remove the user name and write the allowed address itself (authenticate with the Authorization header).`,
      );
    case 'fragment-host':
      return text(
        `${at.ko}의 '#' 뒤 부분(${a.piece})은 서버로 보내지지 않으며, 연결되는 호스트는 '#' 앞의 것입니다. '#' 뒤를 지우고 허용된 주소를 그대로 쓰세요.`,
        `${at.en}: the part after '#' (${a.piece}) is never sent, and the host contacted is the one before '#'. Remove it and write the allowed address itself.`,
      );
    case 'encoded-separator':
      return text(
        `${at.ko}의 경로에 인코딩된 구분 문자(${a.piece})가 있습니다. 서버가 이를 '/'나 '\\'로 풀면 허용된 위치 밖으로 갈 수 있어 보내지 않았습니다. 구분 문자는 인코딩하지 말고 그대로 쓰고, '..' 없이 원하는 페이지의 주소를 직접 쓰세요.`,
        `${at.en} has an encoded separator (${a.piece}) in its path; a server that decodes it may leave the allowed location, so it was not sent. Write separators unencoded and give the page's own address, without '..'.`,
      );
    case 'encoded-dot':
      return text(
        `${at.ko}의 경로에 인코딩된 점(${a.piece})이 있습니다. '%2e%2e'는 서버에서 '..'(상위 폴더)이 될 수 있어 보내지 않았습니다. 점은 '.' 그대로 쓰고, 원하는 페이지의 주소를 직접 쓰세요.`,
        `${at.en} has an encoded dot (${a.piece}) in its path, which a server may turn into '..' (the parent folder), so it was not sent. Write '.' itself and give the page's own address.`,
      );
    case 'double-encoding':
      return text(
        `${at.ko}의 경로가 두 번 인코딩되어 있습니다(${a.piece}). 서버나 프록시가 두 번 풀면 다른 위치가 되므로 보내지 않았습니다. 문자는 한 번만 인코딩하세요(퍼센트 기호 자체는 '%25').`,
        `${at.en} is encoded twice in its path (${a.piece}); decoded twice by a server or proxy it names another location, so it was not sent. Encode each character once (a percent sign itself is '%25').`,
      );
    case 'path-parameter':
      return text(
        `${at.ko}의 경로에 ';'가 있습니다(경로 매개변수, 예: '..;/'). 일부 서버(Tomcat 등)는 이를 지우고 다른 위치로 가므로 보내지 않았습니다. ';'와 그 뒤의 매개변수를 빼고, 매개변수는 '?' 뒤의 쿼리로 보내세요.`,
        `${at.en} has ';' in its path (a path parameter, as in '..;/'); some servers (Tomcat, …) strip it and reach another location, so it was not sent. Remove ';' and what follows it in the segment, and send parameters in the query after '?'.`,
      );
    case 'control':
      return text(
        `${at.ko}의 경로에 제어 문자(${a.piece})가 있어 보내지 않았습니다. 그 문자를 빼고 다시 쓰세요.`,
        `${at.en} has a control character (${a.piece}) in its path, so it was not sent. Remove it and try again.`,
      );
    case 'lookalike':
      return text(
        `${at.ko}의 경로에 '/', '\\', '.', ';' 등과 닮은 문자(${a.piece})가 있습니다. 일부 서버는 이를 진짜 구분 문자로 바꿔 허용된 위치 밖으로 가므로 보내지 않았습니다. 그 문자 대신 보통의 '/'와 '.'를 쓰세요.`,
        `${at.en} has a character in its path that looks like '/', '\\', '.' or ';' (${a.piece}); some servers turn it into the real one and leave the allowed location, so it was not sent. Write a plain '/' or '.' instead.`,
      );
    case 'bad-encoding':
      return text(
        `${at.ko}의 경로에 올바른 UTF-8이 아닌 인코딩(${a.piece})이 있습니다(예: '%C0%AF' 같은 과잉 인코딩, 홀로 있는 '%'). 문자를 그대로 쓰거나 UTF-8로 한 번만 인코딩하세요(퍼센트 기호 자체는 '%25').`,
        `${at.en} has an escape in its path that is not valid UTF-8 (${a.piece}; e.g. an overlong '%C0%AF' or a bare '%'). Write the characters themselves or encode them once as UTF-8 (a percent sign itself is '%25').`,
      );
    default:
      return assertNever(a.kind);
  }
}
