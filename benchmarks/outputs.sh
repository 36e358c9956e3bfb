#!/usr/bin/env bash
# Byte-identity check for redesigns: sciner's outputs over the shared PDFs and test inputs.
#   bash benchmarks/outputs.sh SRC_DIR OUT_DIR [DATA_DIR]
#   e.g. git worktree add /tmp/before HEAD~5 && bash benchmarks/outputs.sh /tmp/before/src /tmp/out-before
#        bash benchmarks/outputs.sh src /tmp/out-after && diff -r /tmp/out-before /tmp/out-after
# extract and predict, each without and with --include tables,captions; summarize of both tagged files.
set -euo pipefail
SRC=$(readlink -f "$1"); OUT=$2; D=${3:-../shared/data}
mkdir -p "$OUT"; export PYTHONPATH="$SRC"
run() { echo "+ $*" >&2; python -m sciner "$@" -q 2>>"$OUT/stderr.log" || echo "exit $? : $*" >>"$OUT/stderr.log"; }
run extract "$D/pdfs/" -o "$OUT/extract/"
run extract "$D/pdfs/" --include tables,captions,footnotes -o "$OUT/extract_inc/"
run predict "$D/test-inputs/" -o "$OUT/pred_test/"
run predict "$D/pdfs/" --json -o "$OUT/pred_pdf.jsonl"
run predict "$D/pdfs/" --include tables,captions --json -o "$OUT/pred_pdf_inc.jsonl"
run summarize "$OUT/pred_pdf.jsonl" -o "$OUT/sum.json"
run summarize "$OUT/pred_pdf_inc.jsonl" --include tables,captions -o "$OUT/sum_inc.json"
run summarize "$OUT/pred_pdf_inc.jsonl" --include tables,captions -o "$OUT/sum_inc.csv"
echo done >&2
