#!/bin/bash
# Times, end to end (docs/method.md, "Speed of the explorer's verdicts"), how long the explorer's verdicts take to arrive after a role key:
# from `tmux send-keys Space` to the first screen with no "recomputing…"/"loading…" badge
# and the battery pane showing verdicts. Usage: scripts/explorer-latency.sh BINARY PANEL TMUX_SESSION
bin=$1; panel=$2; s=$3
tmux kill-session -t "$s" 2>/dev/null
tmux new -d -s "$s" -x 100 -y 30 "nice -n 10 $bin explore $panel"
settled() { ! tmux capture-pane -p -t "$s" | grep -q -e "recomputing…" -e "loading…" -e "running"; }
sleep 1; until settled; do sleep 0.05; done; sleep 2; until settled; do sleep 0.05; done
tmux send -t "$s" 1; sleep 0.3
tmux send -t "$s" G; sleep 0.3   # the last column (A3)
for i in 1 2 3 4 5 6; do
  t0=$(date +%s.%N)
  tmux send -t "$s" Space
  # the badge must appear first (or the answer came within one poll)
  for k in $(seq 1 40); do tmux capture-pane -p -t "$s" | grep -q -e "recomputing…" -e "loading…" && break; sleep 0.005; done
  until settled; do sleep 0.01; done
  t1=$(date +%s.%N)
  echo "key $i: $(echo "$t1 - $t0" | bc) s"
  sleep 1.5
done
tmux capture-pane -p -t "$s" | tail -12
tmux kill-session -t "$s"
