#!/usr/bin/env python3
"""Copy explorer snapshots into the docs' screens (trailing blanks trimmed): each screen below
is the n-th fenced block drawn with a box (first line starting with "┌") of its document.
tests/wording.rs checks that they agree. Run after `INSTA_UPDATE=always cargo test --test explorer`."""
import pathlib

SCREENS = [
    ("docs/explorer.md", 0, "explorer__results_100x30"),
    ("docs/explorer.md", 1, "explorer__llm_assigned_100x30"),
    ("README.md", 0, "explorer__results_100x30"),
]

root = pathlib.Path(__file__).resolve().parent.parent


def drawn(name):
    body = (root / f"tests/snapshots/{name}.snap").read_text().split("---\n", 2)[2]
    return [
        l[1:-1].replace('\\"', '"').replace("\\\\", "\\").rstrip()
        for l in body.splitlines()
        if len(l) >= 2
    ]


for doc, nth, snap in SCREENS:
    path = root / doc
    parts = path.read_text().split("```\n")
    boxes = [i for i in range(1, len(parts), 2) if parts[i].startswith("┌")]
    parts[boxes[nth]] = "\n".join(drawn(snap)) + "\n"
    path.write_text("```\n".join(parts))
