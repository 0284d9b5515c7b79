import { text, type Text } from '../../../common/i18n';
import { shownUrl } from '../http/messages';

/** What the model is told when a page cannot be shown, Korean first (SPEC G-SIGNPOST). */
export const browserMessages = {
  noBrowser(tried: readonly string[], configured: boolean): Text {
    const list = tried.slice(0, 8).join(', ');
    return configured
      ? text(
          `정책의 browser.executablePath(${list})에 실행할 수 있는 Chrome/Edge가 없습니다. 관리자에게 경로를 고쳐 달라고 하세요. 페이지의 HTML만 필요하면 http.request를 쓰세요.`,
          `The policy's browser.executablePath (${list}) is not a runnable Chrome/Edge. Ask the administrator to correct it. If the page's HTML is enough, use http.request.`,
        )
      : text(
          `이 컴퓨터에서 Chrome이나 Edge를 찾지 못했습니다(찾아본 곳: ${list}). 관리자에게 설치하거나 정책의 browser.executablePath에 경로를 적어 달라고 하세요. 페이지의 HTML만 필요하면 http.request를 쓰세요.`,
          `No Chrome or Edge was found on this computer (looked in: ${list}). Ask the administrator to install one or set browser.executablePath in the policy. If the page's HTML is enough, use http.request.`,
        );
  },

  launch(detail: string): Text {
    return text(
      `브라우저를 시작하지 못했습니다(${detail.slice(0, 300)}). 잠시 뒤 다시 해 보거나, 페이지의 HTML만 필요하면 http.request를 쓰세요.`,
      `The browser did not start (${detail.slice(0, 300)}). Try again in a moment, or use http.request if the page's HTML is enough.`,
    );
  },

  timeout(url: string, ms: number): Text {
    return text(
      `${shownUrl(url)} 페이지가 ${Math.round(ms / 1000)}초 안에 열리지 않았습니다. 주소가 맞는지 확인하거나 나중에 다시 해 보세요.`,
      `${shownUrl(url)} did not open within ${Math.round(ms / 1000)} s. Check the address or try again later.`,
    );
  },

  aborted: text('사용자가 중지했습니다. 브라우저를 닫았습니다.', 'Stopped by the user. The browser was closed.'),

  navigation(url: string, error: string): Text {
    return text(
      `${shownUrl(url)} 페이지를 열지 못했습니다(${error}). 주소와 서버가 켜져 있는지 확인하세요.`,
      `Could not open ${shownUrl(url)} (${error}). Check the address and that the server is up.`,
    );
  },

  redirectNotAllowed(from: string, to: string, reason: Text): Text {
    return text(
      `${shownUrl(from)} 페이지가 허용되지 않은 주소 ${shownUrl(to)}(으)로 넘겨서(redirect) 열지 않았습니다. 그 주소에는 아무것도 보내지 않았습니다. ${reason.ko}`,
      `${shownUrl(from)} redirected to ${shownUrl(to)}, which is not allowed, so it was not opened; nothing was sent there. ${reason.en}`,
    );
  },

  tooManyRedirects(url: string, max: number): Text {
    return text(
      `${shownUrl(url)} 페이지가 ${max}번 넘게 다른 주소로 넘겼습니다(redirect). 최종 주소를 직접 주세요.`,
      `${shownUrl(url)} redirected more than ${max} times. Give the final address directly.`,
    );
  },

  leftAllowlist(url: string): Text {
    return text(
      `페이지가 허용 목록 밖의 주소(${shownUrl(url)})로 옮겨 가려 해서 막았고, 내용을 보여 주지 않습니다. 그 주소에는 아무것도 보내지 않았습니다. 허용된 주소의 페이지를 여세요.`,
      `The page tried to move to an address outside the allowlist (${shownUrl(url)}); that was blocked and nothing was sent there, so no content is shown. Open a page at an allowed address.`,
    );
  },
};
