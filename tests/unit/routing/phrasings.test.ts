import { describe, expect, it } from 'vitest';
import { toolCatalog } from '../../../electron/main/gate/catalog';
import { route, RoutingState } from '../../../electron/main/agent/routing/router';

/**
 * Phrasings beyond the bench corpus (written after it), over the real catalog: a correct tool must
 * be among the schemas a fresh conversation sends. A failure here after a tool's keywords or
 * description changed is a routing regression to look at, not noise.
 */
const cases: [string, string[], 'ko' | 'en'][] = [
  ['내 문서 폴더에 있는 파일들 좀 쭉 보여줄래?', ['filesystem.list'], 'ko'],
  ['하위 폴더까지 전부 목록으로 뽑아줘', ['filesystem.list'], 'ko'],
  ['이 텍스트 파일 열어봐', ['filesystem.read'], 'ko'],
  ['readme 파일 처음 10줄 읽어 줄래', ['filesystem.read'], 'ko'],
  ['파일 이름에 2023이 들어간 거 다 찾아줘', ['filesystem.search'], 'ko'],
  ['"계약 해지"라는 말이 들어있는 파일이 어디 있어?', ['search.text'], 'ko'],
  ['소스 코드에서 TODO 주석 검색', ['search.text'], 'ko'],
  ['이 파일 용량이 얼마야?', ['filesystem.info', 'system.info'], 'ko'],
  ['결과를 report.txt에 써줘', ['filesystem.write'], 'ko'],
  ['새 파일 하나 만들어서 오늘 할 일 적어줘', ['filesystem.write'], 'ko'],
  ['본문에서 오타 "되요"를 "돼요"로 고쳐줘', ['filesystem.edit'], 'ko'],
  ['아카이브 폴더 하나 생성해줘', ['filesystem.mkdir'], 'ko'],
  ['사진 파일들을 사진 폴더로 이동시켜줘', ['filesystem.move'], 'ko'],
  ['이 엑셀 사본 하나 만들어줘', ['filesystem.copy'], 'ko'],
  ['필요 없는 로그 파일 제거해줘', ['filesystem.delete'], 'ko'],
  ['실수로 지운 파일 살려줘', ['filesystem.restore'], 'ko'],
  ['CPU랑 램 사양 알려줘', ['system.info'], 'ko'],
  ['사내 API에서 오늘 환율 조회해줘', ['http.request'], 'ko'],
  ['빌드 서버 상태 확인해줘', ['ssh.execute'], 'ko'],
  ['서버 로그 받아와', ['ssh.download'], 'ko'],
  ['git log 보여줘', ['git.log', 'shell.execute'], 'ko'],
  ['백그라운드 작업 멈춰줘', ['shell.output'], 'ko'],
  ['show me what is in the downloads folder', ['filesystem.list'], 'en'],
  ['open config.json', ['filesystem.read'], 'en'],
  ['where is the file called budget', ['filesystem.search'], 'en'],
  ['grep for TODO in src', ['search.text'], 'en'],
  ['create a folder named archive', ['filesystem.mkdir'], 'en'],
  ['copy report.docx to the backup folder', ['filesystem.copy'], 'en'],
  ['undo the delete', ['filesystem.restore'], 'en'],
  ['check uptime on the build server', ['ssh.execute'], 'en'],
  ['replace foo with bar in main.py', ['filesystem.edit'], 'en'],
  ['how big is data.csv', ['filesystem.info'], 'en'],
];

describe('routing real phrasings over the real catalog', () => {
  const tools = toolCatalog();
  it.each(cases)('%s → one of %j', (request, correct, lang) => {
    const r = route(request, new RoutingState(), tools, { lang });
    expect(r.schemas.some((s) => correct.includes(s))).toBe(true);
  });
});
