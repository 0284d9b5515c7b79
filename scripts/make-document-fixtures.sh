#!/usr/bin/env bash
# Makes the committed spreadsheet fixtures of tests/fixtures/documents/ (issue 18, excel.*) with
# programs other than Baram, so the excel tools are tested on files real office software wrote:
#   - LibreOffice Calc (apt-get install -y libreoffice-calc-nogui) converts the hand-written flat
#     ODS source tests/fixtures/documents/src/sales.fods (three sheets: a merged title row, dates,
#     a SUM formula, Korean text with UHC-only syllables such as 똠, a hidden sheet, a vertical
#     merge, booleans) into xlsx and into CSV;
#   - glibc's iconv turns LibreOffice's UTF-8 CSV into CP949, as Korean Windows Excel saves it;
#   - the damaged variants are byte edits of LibreOffice's xlsx, described below.
# CI does not run this script (no LibreOffice there): it uses the committed files. Run it again
# only to change the fixtures:
#   bash scripts/make-document-fixtures.sh
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
OUT="$ROOT/tests/fixtures/documents"
SRC="$OUT/src/sales.fods"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

command -v soffice >/dev/null || { echo "soffice missing: apt-get install -y libreoffice-calc-nogui" >&2; exit 1; }
export HOME="$WORK/home" # LibreOffice's profile goes to the temp folder, not the user's

# xlsx: Calc's own OOXML export (LibreOffice writes the sheets before the shared strings, the
# order that makes exceljs's streaming reader park sheets in temp files unless we reorder).
soffice --headless --convert-to 'xlsx:Calc Office Open XML' --outdir "$WORK" "$SRC" >/dev/null 2>&1
cp "$WORK/sales.xlsx" "$OUT/sales.xlsx"

# CSV of the first sheet: comma, double quotes, UTF-8 (filter token 76), then CP949 via iconv.
soffice --headless --convert-to 'csv:Text - txt - csv (StarCalc):44,34,76,1' --outdir "$WORK" "$SRC" >/dev/null 2>&1
cp "$WORK/sales.csv" "$OUT/sales-utf8.csv"
iconv -f UTF-8 -t CP949 "$WORK/sales.csv" >"$OUT/sales-cp949.csv"

# Semicolon-delimited (European Excel's default) with a UTF-8 BOM in front.
soffice --headless --convert-to 'csv:Text - txt - csv (StarCalc):59,34,76,1' --outdir "$WORK/semi" "$SRC" >/dev/null 2>&1
{ printf '\xef\xbb\xbf'; cat "$WORK/semi/sales.csv"; } >"$OUT/sales-semicolon-bom.csv"

# Damaged 1: the last third cut off (a download that stopped): no central directory.
size=$(stat -c %s "$OUT/sales.xlsx")
head -c $((size * 2 / 3)) "$OUT/sales.xlsx" >"$OUT/damaged-truncated.xlsx"

# Damaged 2: the central directory intact, but 64 bytes inside the first sheet's deflate data
# overwritten (a bad disk sector): the file opens, the sheet does not inflate.
python3 - "$OUT/sales.xlsx" "$OUT/damaged-sheet.xlsx" <<'PY'
import struct, sys, zipfile
src, dst = sys.argv[1], sys.argv[2]
data = bytearray(open(src, 'rb').read())
info = zipfile.ZipFile(src).getinfo('xl/worksheets/sheet1.xml')
name_len, extra_len = struct.unpack('<HH', data[info.header_offset + 26:info.header_offset + 30])
start = info.header_offset + 30 + name_len + extra_len + info.compress_size // 3
data[start:start + 64] = b'\xff' * 64
open(dst, 'wb').write(data)
PY

ls -l "$OUT"/sales* "$OUT"/damaged-truncated.xlsx "$OUT"/damaged-sheet.xlsx
