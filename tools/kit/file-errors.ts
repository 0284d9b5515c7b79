import type { FileAccessError } from '../../electron/common/file-access';
import { assertNever } from '../../electron/common/assert-never';
import { text, type Text } from '../../electron/common/i18n';

/**
 * Model-facing texts for file errors. Each says what to do instead (SPEC G-SIGNPOST): small models
 * treat an error message as their next prompt.
 */
export function fileErrorText(e: FileAccessError): Text {
  const p = e.path;
  switch (e.code) {
    case 'OUTSIDE_ROOTS':
      return text(
        `'${p}'은(는) 작업 폴더 밖이라 사용할 수 없습니다. 작업 폴더 안의 상대 경로를 쓰세요 (폴더 목록은 filesystem.list).`,
        `'${p}' is outside the workspace folders and cannot be used. Use a relative path inside the workspace (filesystem.list shows what is there).`,
      );
    case 'FORBIDDEN':
      return text(
        `'${p}'은(는) Baram이 보호하는 위치(감사 기록, 정책 파일)라 도구로 다룰 수 없습니다. 다른 파일을 쓰세요.`,
        `'${p}' is protected by Baram (audit records, policy file) and cannot be used by tools. Use another file.`,
      );
    case 'INVALID_PATH':
      return text(
        `'${p}'은(는) 올바른 경로가 아닙니다. 작업 폴더 안의 파일 경로를 문자열로 주세요 (예: "보고서/2024.xlsx").`,
        `'${p}' is not a valid path. Give a file path inside the workspace as a string (e.g. "reports/2024.xlsx").`,
      );
    case 'NOT_FOUND':
      return text(
        `'${p}'이(가) 없습니다. filesystem.search로 파일 이름을 찾거나 filesystem.list로 폴더를 확인하세요.`,
        `'${p}' does not exist. Find it by name with filesystem.search or look at the folder with filesystem.list.`,
      );
    case 'EXISTS':
      return text(
        `'${p}'이(가) 이미 있습니다. 덮어쓰려면 overwrite: true를 주거나 다른 이름을 쓰세요.`,
        `'${p}' already exists. Pass overwrite: true to replace it, or choose another name.`,
      );
    case 'IS_DIRECTORY':
      return text(
        `'${p}'은(는) 폴더입니다. 폴더 내용은 filesystem.list로 보세요.`,
        `'${p}' is a folder. Use filesystem.list to see what it contains.`,
      );
    case 'NOT_DIRECTORY':
      return text(
        `'${p}'은(는) 폴더가 아니라 파일입니다. 파일은 filesystem.read로 읽으세요.`,
        `'${p}' is a file, not a folder. Read files with filesystem.read.`,
      );
    case 'TOO_LARGE':
      return text(
        `'${p}'이(가) 너무 큽니다. offset과 limit으로 나눠 읽거나 search.text로 필요한 부분만 찾으세요.`,
        `'${p}' is too large. Read it in parts with offset and limit, or find the part you need with search.text.`,
      );
    case 'CHANGED':
      return text(
        `'${p}'이(가) 승인 뒤에 바뀌어 손대지 않았습니다. 파일을 다시 확인한 뒤 다시 요청하세요.`,
        `'${p}' changed after it was approved, so it was not touched. Check the file again and repeat the request.`,
      );
    case 'AMBIGUOUS':
      return text(
        `'${p}'과(와) 똑같아 보이는 이름이 같은 폴더에 둘 있습니다(글자 조합 방식만 다름, 예: Mac이나 압축 파일에서 온 이름). 어느 것인지 알 수 없어 손대지 않았습니다. 파일 탐색기에서 하나의 이름을 바꾼 뒤 다시 요청하세요.`,
        `Two names in that folder look exactly like '${p}' (they differ only in how the letters are encoded, e.g. one came from a Mac or a zip file). Nothing was done, since which one is meant cannot be told. Rename one of them in the file manager, then repeat the request.`,
      );
    case 'IO':
      return text(
        `'${p}'을(를) 처리하지 못했습니다 (파일이 다른 프로그램에서 열려 있거나 권한이 없을 수 있습니다). 파일을 닫고 다시 시도하세요.`,
        `'${p}' could not be processed (it may be open in another program, or access is not permitted). Close it and try again.`,
      );
    default:
      return assertNever(e.code);
  }
}
