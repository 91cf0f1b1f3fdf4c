#!/bin/sh
# cronjob_schedule.sh: the CronJob controller in dra schedule, whose clock
# is --now: restored CronJobs (tests/data/cron/cluster.yaml) start the Job of
# their most recent unmet time, named by its Unix minute, stamped in the
# schedule's zone (New York's EDT after 2026-03-08); more than 100 missed
# times warn TooManyMissedTimes unless startingDeadlineSeconds bounds them;
# suspended or not yet due CronJobs start nothing. The same input gives the
# same output.
dra=${1:-build/dra}
. tests/lib/check.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
in=tests/data/cron/cluster.yaml
"$dra" schedule --now 2026-03-10T12:00:30Z -o yaml -f $in >"$tmp/out.yaml"
check "nightly job in EDT" 0 'batch.kubernetes.io/cronjob-scheduled-timestamp: "2026-03-10T02:30:00-04:00"' cat "$tmp/out.yaml"
check "named by minute" 0 "name: nightly-29552070" cat "$tmp/out.yaml"
check "template labels" 0 "name: nightly-29552070" sh -c "grep -A1 '^      team: batch' $tmp/out.yaml"
check "last schedule time" 0 'lastScheduleTime: "2026-03-10T06:30:00Z"' cat "$tmp/out.yaml"
check "created event" 0 "message: Created job minutely-29552400" cat "$tmp/out.yaml"
check "too many missed" 0 "message: too many missed start times. Set or decrease .spec.startingDeadlineSeconds" cat "$tmp/out.yaml"
check "on the CronJob" 0 "name: minutely." sh -c "grep -A8 'message: too many missed' $tmp/out.yaml"
check "deadline bounds the missed times" 0 "1" sh -c "grep -c 'reason: TooManyMissedTimes' $tmp/out.yaml"
check "recent job" 0 "name: recent-29552400" cat "$tmp/out.yaml"
check "suspended and not due start nothing" 0 "0" sh -c "grep -cE 'name: (paused|yearly)-' $tmp/out.yaml || true"
check "deterministic" 0 "same" sh -c "\"$dra\" schedule --now 2026-03-10T12:00:30Z -o yaml -f $in | diff $tmp/out.yaml - && echo same"
check "before the first time: nothing" 0 "0" sh -c "\"$dra\" schedule --now 2026-01-01T00:00:30Z -o yaml -f $in | grep -c 'name: nightly-' || true"
check_done
