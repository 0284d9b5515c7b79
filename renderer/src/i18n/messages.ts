import { text, type Text } from '../../../electron/common/i18n';
import type { Risk } from '../../../electron/common/domain';
import type { IpcErrorCode } from '../../../electron/common/ipc-contract';

/**
 * Every string the page shows, Korean first. One Text per message (not two parallel files), so a
 * message cannot exist in one language only.
 */
export const messages = {
  title: text('바람', 'Baram'),
  tagline: text('사무실 안에서만 일하는 업무 도우미', 'An office assistant that works only inside your office'),
  version: text('버전', 'Version'),
  toolsHeading: text('사용할 수 있는 도구', 'Available tools'),
  loading: text('불러오는 중…', 'Loading…'),
  noTools: text('등록된 도구가 없습니다.', 'No tools are registered.'),
  bridgeMissing: text(
    '데스크톱 앱과 연결되어 있지 않습니다. 도구 목록은 바람 데스크톱 앱 안에서 열었을 때 보입니다.',
    'Not connected to the desktop app. The tool list appears when this page is opened inside the Baram desktop app.',
  ),
  columnName: text('이름', 'Name'),
  columnFamily: text('분류', 'Family'),
  columnRisk: text('위험도', 'Risk'),
  columnDescription: text('설명', 'Description'),
} as const satisfies Readonly<Record<string, Text>>;

export type MessageKey = keyof typeof messages;

/** Risk words an office worker understands; exhaustive, so a new Risk does not compile without one. */
export const riskLabels: Readonly<Record<Risk, Text>> = {
  read: text('읽기', 'Read'),
  write: text('쓰기', 'Write'),
  destructive: text('삭제·덮어쓰기', 'Delete/overwrite'),
  execute: text('프로그램 실행', 'Run programs'),
  network: text('네트워크', 'Network'),
};

/** What the page says when a call to the desktop app fails, by the contract's error code. */
export const ipcErrorMessages: Readonly<Record<IpcErrorCode, Text>> = {
  FORBIDDEN_SENDER: text(
    '이 화면은 데스크톱 앱에 요청할 권한이 없습니다. 앱을 다시 시작하세요.',
    'This page may not make requests to the desktop app. Restart the app.',
  ),
  BAD_REQUEST: text(
    '데스크톱 앱이 요청을 이해하지 못했습니다. 앱을 최신 버전으로 다시 설치하세요.',
    'The desktop app did not understand the request. Reinstall the latest version of the app.',
  ),
  UNAVAILABLE: text(
    '이 기능은 아직 연결되어 있지 않습니다. 도구 목록은 다음 버전에서 보입니다.',
    'This feature is not connected yet. The tool list will appear in a later version.',
  ),
  INTERNAL: text(
    '데스크톱 앱 내부 오류가 발생했습니다. 관리자에게 앱 로그를 전달하세요.',
    'The desktop app hit an internal error. Send the application log to your administrator.',
  ),
};
