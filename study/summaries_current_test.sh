#!/bin/sh
# The committed summaries (docs/study.md quotes them) are what the committed results give, and a summary
# no spec or size writes any more is named as such: one regeneration checks both (it takes minutes).
# A copy of docs/study gets one orphan summary; summaries.sh --check must name it and nothing else.
# Usage: summaries_current_test.sh HETLB WORKDIR (run from the source tree). Exit 77 while a campaign
# appends rows.
set -u
hetlb=$1 work=$2
rm -rf "$work" && mkdir -p "$work" && cp -R docs/study "$work/study" || exit 1
echo old > "$work/study/6-nodes-old.md"
status=0
# The verdicts are left to campaign_study_verdicts_current, which checks them on its own.
HETLB=$hetlb OUT=$work/study VERDICTS=0 sh study/summaries.sh --check 2> "$work/check.err" || status=$?
[ $status -eq 77 ] && exit 77
cat "$work/check.err" >&2
if grep -e "is not what the results give" -e "summarises no results" "$work/check.err" |
   grep -v "study/6-nodes-old.md summarises no results" | grep -q .; then
  echo "summaries_current_test: the committed summaries are not what the results give (above)" >&2
  exit 1
fi
if [ $status -ne 1 ] || ! grep -q "study/6-nodes-old.md summarises no results" "$work/check.err"; then
  echo "summaries_current_test: the orphan summary 6-nodes-old.md was not named (exit $status)" >&2
  exit 1
fi
echo "summaries_current_test: every committed summary is current; the orphan was named"
