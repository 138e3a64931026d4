#!/usr/bin/env python3
"""Copy the explorer's snapshot `explorer__llm_assigned_100x30` into docs/explorer.md's
"A real panel" screen (trailing blanks trimmed); tests/wording.rs checks they agree."""
import pathlib

root = pathlib.Path(__file__).resolve().parent.parent
snap = (root / "tests/snapshots/explorer__llm_assigned_100x30.snap").read_text()
body = snap.split("---\n", 2)[2]
lines = [l[1:-1].replace('\\"', '"').replace("\\\\", "\\").rstrip() for l in body.splitlines() if len(l) >= 2]
doc_path = root / "docs/explorer.md"
doc = doc_path.read_text()
at = doc.index("## A real panel")
head, fence, rest = doc[at:].partition("```\n")
_, _, tail = rest.partition("```\n")
doc_path.write_text(doc[:at] + head + fence + "\n".join(lines) + "\n```\n" + tail)
