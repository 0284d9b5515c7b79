import { copyFile, mkdir, readdir, rm, stat, writeFile, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import iconv from 'iconv-lite';
import { prng } from '../helpers/prng';

/**
 * The search.text benchmark corpus: text files copied from node_modules (code and English prose)
 * plus generated Korean office text in UTF-8, CP949 and UTF-16, and a few binaries. Built once
 * under the OS temp folder (outside any git repository, so ripgrep applies no ignore rules) and
 * reused while its version stamp matches. No hidden files and no ignore files: grep, ripgrep and
 * our walk then see the same set.
 */
export const CORPUS_VERSION = 1;
const CODE_BYTES = 40 * 1024 * 1024;
const KOREAN_UTF8_FILES = 1100;
const KOREAN_CP949_FILES = 200;
const KOREAN_UTF16_FILES = 20;
const BINARY_FILES = 20;
const TEXT_EXTENSIONS = new Set(['.js', '.mjs', '.cjs', '.ts', '.mts', '.cts', '.md', '.json', '.txt', '.css', '.html', '.yml', '.yaml']);

export interface Corpus {
  readonly root: string;
  readonly files: number;
  readonly bytes: number;
  /** Folders by kind, relative to root. */
  readonly cp949Dir: string;
  readonly utf16Dir: string;
}

interface Stamp {
  readonly version: number;
  readonly files: number;
  readonly bytes: number;
}


const WORDS = (
  '보고서 예산 회의 결재 부서 담당자 검토 승인 계약 일정 프로젝트 고객 매출 분기 인사 교육 보안 점검 결과 요청 문서 첨부 ' +
  '파일 시스템 서버 관리 업무 협조 안내 공지 변경 사항 기획 개발 운영 지원 총무 재무 구매 납품 견적 발주 정산 출장 휴가 ' +
  '근무 평가 목표 실적 전략 시장 제품 서비스 품질 개선 장애 복구 백업 접근 권한 계정 비밀번호 감사 기록 규정 지침 절차 ' +
  '서울 부산 대전 광주 본사 지사 센터 연구소 위원회 이사회 주주 총회 자료 초안 최종 수정 검수 배포 완료 예정 진행 보류'
).split(' ');
const PARTICLES = ['은', '는', '이', '가', '을', '를', '에', '에서', '의', '와', '과', '로', '으로', '도', '만'];
const ENDINGS = ['합니다.', '했습니다.', '바랍니다.', '예정입니다.', '필요합니다.', '하였음.', '요청드립니다.', '확인 바람.'];
const ENGLISH = ['ERP', 'VPN', 'Excel', 'PDF', 'HWP', 'email', 'Q3', 'KPI', 'DB', 'API', 'error', 'Deprecated', 'TODO'];

/** One line of Korean office prose; about 1 line in 60 mentions 개인정보 (a measured pattern). */
function koreanLine(rand: () => number): string {
  const parts: string[] = [];
  const n = 4 + Math.floor(rand() * 12);
  for (let i = 0; i < n; i++) {
    const r = rand();
    if (r < 0.012) parts.push('개인정보');
    else if (r < 0.06) parts.push(ENGLISH[Math.floor(rand() * ENGLISH.length)] as string);
    else if (r < 0.08) {
      const y = 2019 + Math.floor(rand() * 7);
      const m = String(1 + Math.floor(rand() * 12)).padStart(2, '0');
      const d = String(1 + Math.floor(rand() * 28)).padStart(2, '0');
      parts.push(`${y}-${m}-${d}`);
    } else {
      const word = WORDS[Math.floor(rand() * WORDS.length)] as string;
      parts.push(rand() < 0.6 ? word + (PARTICLES[Math.floor(rand() * PARTICLES.length)] as string) : word);
    }
  }
  return `${parts.join(' ')} ${ENDINGS[Math.floor(rand() * ENDINGS.length)] as string}`;
}

function koreanDocument(rand: () => number, lines: number): string {
  const out: string[] = [];
  for (let i = 0; i < lines; i++) out.push(koreanLine(rand));
  return `${out.join('\n')}\n`;
}

async function* textFilesUnder(dir: string): AsyncGenerator<string> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const e of entries) {
    if (e.name.startsWith('.')) continue;
    const p = join(dir, e.name);
    if (e.isDirectory()) yield* textFilesUnder(p);
    else if (e.isFile()) {
      const dot = e.name.lastIndexOf('.');
      if (dot > 0 && TEXT_EXTENSIONS.has(e.name.slice(dot))) yield p;
    }
  }
}

async function build(root: string, nodeModules: string): Promise<Stamp> {
  await rm(root, { recursive: true, force: true });
  let files = 0;
  let bytes = 0;

  // Code and prose from node_modules, 1–256 KiB per file. Nested "node_modules" folders are
  // renamed so no tool gives the name a special meaning.
  for await (const source of textFilesUnder(nodeModules)) {
    if (bytes >= CODE_BYTES) break;
    const size = (await stat(source)).size;
    if (size < 1024 || size > 256 * 1024) continue;
    const head = await readFile(source);
    if (head.subarray(0, 8192).includes(0)) continue; // keep binaries out of the code part
    const rel = relative(nodeModules, source)
      .split(/[\\/]/)
      .map((part) => (part === 'node_modules' ? 'nm' : part))
      .join('/');
    const target = join(root, 'code', rel);
    await mkdir(dirname(target), { recursive: true });
    await copyFile(source, target);
    files++;
    bytes += size;
  }

  const rand = prng(20240315);
  for (let i = 0; i < KOREAN_UTF8_FILES; i++) {
    const lines = 60 + Math.floor(rand() * 120);
    let body = koreanDocument(rand, lines);
    // Some Windows-made files: CRLF line ends, a UTF-8 BOM.
    if (i % 10 === 0) body = body.replace(/\n/g, '\r\n');
    const data = i % 7 === 0 ? Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(body)]) : Buffer.from(body);
    const target = join(root, 'docs', `부서${i % 12}`, `보고서-${String(i).padStart(4, '0')}.txt`);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, data);
    files++;
    bytes += data.length;
  }
  for (let i = 0; i < KOREAN_CP949_FILES; i++) {
    const data = iconv.encode(koreanDocument(rand, 80 + Math.floor(rand() * 80)).replace(/\n/g, '\r\n'), 'cp949');
    const target = join(root, 'legacy-cp949', `문서-${String(i).padStart(3, '0')}.txt`);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, data);
    files++;
    bytes += data.length;
  }
  for (let i = 0; i < KOREAN_UTF16_FILES; i++) {
    const data = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(koreanDocument(rand, 100), 'utf16le')]);
    const target = join(root, 'export-utf16', `내보내기-${String(i).padStart(2, '0')}.txt`);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, data);
    files++;
    bytes += data.length;
  }
  // Binaries that contain every measured pattern: all three tools must skip them.
  for (let i = 0; i < BINARY_FILES; i++) {
    const text = Buffer.from('readFileSync deprecated function fooSync 개인정보 2024-01-01\n'.repeat(50));
    const data = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0x0d]), text, Buffer.alloc(64)]);
    const target = join(root, 'bin', `image-${i}.bin`);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, data);
    files++;
    bytes += data.length;
  }
  return { version: CORPUS_VERSION, files, bytes };
}

/** The corpus, built on first use (about 10 s) and reused afterwards. */
export async function ensureCorpus(nodeModules: string): Promise<Corpus> {
  const root = join(tmpdir(), `baram-search-bench-v${CORPUS_VERSION}`);
  const stampFile = `${root}.stamp.json`;
  let stamp: Stamp | null = null;
  try {
    stamp = JSON.parse(await readFile(stampFile, 'utf8')) as Stamp;
    if (stamp.version !== CORPUS_VERSION) stamp = null;
  } catch {
    stamp = null;
  }
  if (stamp === null) {
    stamp = await build(root, nodeModules);
    await writeFile(stampFile, JSON.stringify(stamp));
  }
  return { root, files: stamp.files, bytes: stamp.bytes, cp949Dir: 'legacy-cp949', utf16Dir: 'export-utf16' };
}
