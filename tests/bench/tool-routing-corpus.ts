/**
 * Requests for the routing bench (issue 16): office requests as people type them — particles,
 * endings, spacing and a few typos as they come — each with the tools that would do the job
 * (any one offered counts as correct). The first 40 (30 Korean, 10 English) were written over the
 * first 18 tools; the rest came with the tools added after them (documents and spreadsheets, the
 * archive, git, browser and code families), three Korean to one English like the first 40.
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
  { lang: 'ko', request: '사내 인트라넷 공지사항 페이지(http://intranet.local/notice) 내용을 가져와줘', correct: ['http.request', 'browser.open'] },
  { lang: 'ko', request: 'http://erp.local/api/stock 주소에 요청해서 재고 현황 받아줘', correct: ['http.request'] },
  { lang: 'ko', request: '웹 서버에 접속해서 uptime 명령으로 상태 점검해줘', correct: ['ssh.execute'] },
  { lang: 'ko', request: '운영 서버에서 df -h로 디스크 사용량 확인해 주세요', correct: ['ssh.execute'] },
  { lang: 'ko', request: '서버에 있는 어제 로그 파일을 내려받아줘', correct: ['ssh.download'] },
  { lang: 'ko', request: 'git status 실행해서 변경된 파일 알려줘', correct: ['shell.execute', 'git.status'] },
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
  { lang: 'en', request: 'Fetch http://intranet.local/status and show me the response', correct: ['http.request', 'browser.open'] },
  { lang: 'en', request: 'Run git log on the repository', correct: ['shell.execute', 'git.log'] },
  // ── documents and spreadsheets (issue 18), and filesystem.trash ──
  { lang: 'ko', request: '매출 현황.xlsx에 어떤 시트가 있는지 알려줘', correct: ['excel.sheets'] },
  { lang: 'ko', request: '판매실적.xlsx의 2분기 시트에서 A1부터 D20까지 읽어줘', correct: ['excel.read'] },
  { lang: 'ko', request: '부서별 인원을 표로 정리해서 인원현황.xlsx 엑셀 파일로 저장해줘', correct: ['excel.write'] },
  { lang: 'ko', request: '감사보고서.pdf 3쪽 내용 좀 보여줘', correct: ['document.pdf.read'] },
  { lang: 'ko', request: '계약서.docx에 적힌 계약 기간이 언제인지 읽어줘', correct: ['document.word.read'] },
  { lang: 'ko', request: '회의 결과를 워드 문서 결과보고.docx로 만들어줘', correct: ['document.word.write'] },
  { lang: 'ko', request: '한글 파일 사업계획서.hwp 내용 읽어줘', correct: ['document.hwp.read'] },
  { lang: 'ko', request: '휴지통에 뭐가 들어 있는지 보여줘', correct: ['filesystem.trash'] },
  { lang: 'en', request: 'Which sheets does budget.xlsx have?', correct: ['excel.sheets'] },
  { lang: 'en', request: 'Extract the text of page 2 of the annual report PDF', correct: ['document.pdf.read'] },
  { lang: 'en', request: 'Read the HWPX file notice.hwpx', correct: ['document.hwp.read'] },
  // ── archive, git, browser and code ──
  { lang: 'ko', request: '첨부파일.zip 압축 풀어줘', correct: ['archive.unzip'] },
  { lang: 'ko', request: '보고서 폴더를 통째로 압축해서 보고서.zip으로 만들어줘', correct: ['archive.zip'] },
  { lang: 'ko', request: '이 저장소에서 아직 커밋 안 한 변경 사항 보여줘', correct: ['git.status', 'git.diff'] },
  { lang: 'ko', request: '최근 커밋 기록 10개만 보여줘', correct: ['git.log'] },
  { lang: 'ko', request: 'main.py 42번째 줄은 누가 마지막으로 고쳤는지 알려줘', correct: ['git.blame'] },
  { lang: 'ko', request: '어제 한 커밋에서 뭐가 바뀌었는지 보여줘', correct: ['git.show', 'git.log', 'git.diff'] },
  { lang: 'ko', request: '그룹웨어 공지 페이지 열어서 오늘 올라온 공지 알려줘', correct: ['browser.open', 'http.request'] },
  { lang: 'ko', request: '인트라넷 대시보드 화면을 캡처해서 대시보드.png로 저장해줘', correct: ['browser.screenshot'] },
  { lang: 'ko', request: 'app.ts 파일에 어떤 함수들이 있는지 알려줘', correct: ['code.outline'] },
  { lang: 'ko', request: '이 프로젝트 코드가 언어별로 몇 줄인지 세어줘', correct: ['code.stats'] },
  { lang: 'en', request: 'Unzip invoices.zip into the invoices folder', correct: ['archive.unzip'] },
  { lang: 'en', request: 'Show the last 5 commits', correct: ['git.log'] },
  { lang: 'en', request: 'Take a screenshot of http://intranet.local/dashboard', correct: ['browser.screenshot'] },
  { lang: 'en', request: 'List the functions and classes in server.py', correct: ['code.outline'] },
];
