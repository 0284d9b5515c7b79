/**
 * Requests for the routing bench (issue 16): office requests as people type them — particles,
 * endings, spacing and a few typos as they come — each with the tools that would do the job
 * (any one offered counts as correct). 30 Korean, 10 English, over the 18 tools that exist; add
 * cases when tools are added.
 */
export interface RoutingCase {
  readonly request: string;
  readonly lang: 'ko' | 'en';
  readonly correct: readonly string[];
}

export const routingCorpus: readonly RoutingCase[] = [
  { lang: 'ko', request: '다운로드 폴더에 뭐가 있는지 보여줘', correct: ['filesystem.list'] },
  { lang: 'ko', request: '바탕화면 보고서 폴더 안의 파일 목록을 하위 폴더까지 보여 주세요', correct: ['filesystem.list'] },
  { lang: 'ko', request: '회의록.txt 파일 내용 좀 읽어줘', correct: ['filesystem.read'] },
  { lang: 'ko', request: '2024년 예산안.csv 열어서 앞부분 50줄만 보여줘', correct: ['filesystem.read'] },
  { lang: 'ko', request: '견적서라는 이름이 들어간 파일 찾아줘', correct: ['filesystem.search'] },
  { lang: 'ko', request: '작년에 만든 엑셀 파일(*.xlsx)을 전부 찾아 주세요', correct: ['filesystem.search', 'filesystem.list'] },
  { lang: 'ko', request: "'납품 지연'이라는 문구가 들어간 문서를 검색해줘", correct: ['search.text'] },
  { lang: 'ko', request: '로그 파일들에서 ERROR가 나온 줄을 모두 찾아줘', correct: ['search.text'] },
  { lang: 'ko', request: '계약서.docx 파일 크기랑 수정 시각 알려줘', correct: ['filesystem.info'] },
  { lang: 'ko', request: '오늘 회의 내용을 정리해서 회의록_1203.txt로 저장해줘', correct: ['filesystem.write'] },
  { lang: 'ko', request: "메모.txt에서 '김과장'을 '김부장'으로 바꿔줘", correct: ['filesystem.edit'] },
  { lang: 'ko', request: '설정 파일의 포트 번호를 8080에서 9090으로 수정해 주세요', correct: ['filesystem.edit'] },
  { lang: 'ko', request: "프로젝트 폴더 안에 '2025년 자료'라는 새 폴더를 만들어줘", correct: ['filesystem.mkdir'] },
  { lang: 'ko', request: '다운로드 폴더의 엑셀 파일을 연도별 폴더로 정리해줘', correct: ['filesystem.move', 'filesystem.mkdir'] },
  { lang: 'ko', request: '보고서_최종.hwp 이름을 보고서_2024.hwp로 바꿔줘', correct: ['filesystem.move'] },
  { lang: 'ko', request: '중요한 문서들을 백업 폴더에 복사해 주세요', correct: ['filesystem.copy'] },
  { lang: 'ko', request: '임시 파일(*.tmp)들을 모두 지워줘', correct: ['filesystem.delete'] },
  { lang: 'ko', request: '방금 삭제한 파일을 다시 복원해줘', correct: ['filesystem.restore'] },
  { lang: 'ko', request: '휴지통에 버린 견적서 되돌려 줄래?', correct: ['filesystem.restore'] },
  { lang: 'ko', request: '디스크 남은 용량이 얼마나 되는지 확인해줘', correct: ['system.info'] },
  { lang: 'ko', request: '이 컴퓨터 메모리랑 운영체제 정보 알려줘', correct: ['system.info'] },
  { lang: 'ko', request: '사내 인트라넷 공지사항 페이지(http://intranet.local/notice) 내용을 가져와줘', correct: ['http.request'] },
  { lang: 'ko', request: 'http://erp.local/api/stock 주소에 요청해서 재고 현황 받아줘', correct: ['http.request'] },
  { lang: 'ko', request: '웹 서버에 접속해서 uptime 명령으로 상태 점검해줘', correct: ['ssh.execute'] },
  { lang: 'ko', request: '운영 서버에서 df -h로 디스크 사용량 확인해 주세요', correct: ['ssh.execute'] },
  { lang: 'ko', request: '서버에 있는 어제 로그 파일을 내려받아줘', correct: ['ssh.download'] },
  { lang: 'ko', request: 'git status 실행해서 변경된 파일 알려줘', correct: ['shell.execute'] },
  { lang: 'ko', request: '빌드 명령을 백그라운드로 실행하고 진행 상황 알려줘', correct: ['shell.execute', 'shell.output'] },
  { lang: 'ko', request: '아까 시작한 백그라운드 작업 출력 좀 보여줘', correct: ['shell.output'] },
  // typos: 폴도 (폴더), 삭재 (삭제)
  { lang: 'ko', request: '보고서 폴도에 있는 임시 파일 삭재해줘', correct: ['filesystem.delete'] },
  { lang: 'en', request: 'List the files in the Documents folder', correct: ['filesystem.list'] },
  { lang: 'en', request: 'Read the first 20 lines of notes.txt', correct: ['filesystem.read'] },
  { lang: 'en', request: 'Find all PDF files under the reports folder', correct: ['filesystem.search', 'filesystem.list'] },
  { lang: 'en', request: "Serach the log contents for lines containing 'timeout'", correct: ['search.text'] },
  { lang: 'en', request: 'Save this summary as summary.md', correct: ['filesystem.write'] },
  { lang: 'en', request: 'Rename draft.docx to final.docx', correct: ['filesystem.move'] },
  { lang: 'en', request: 'Delete the old backup files', correct: ['filesystem.delete'] },
  { lang: 'en', request: 'How much free disk space is left on this machine?', correct: ['system.info'] },
  { lang: 'en', request: 'Fetch http://intranet.local/status and show me the response', correct: ['http.request'] },
  { lang: 'en', request: 'Run git log on the repository', correct: ['shell.execute'] },
];
