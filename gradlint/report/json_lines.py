"""One JSON object per line per finding (``Finding.to_json``), for tools that stream: the same
objects as the ``json`` format, without the enclosing array; nothing at all when there are none."""
from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import TextIO

from gradlint.finding import Finding
from gradlint.report import json_safe


def write(findings: list[Finding], out: TextIO, sources: Mapping[str, str],
          errors: Sequence[str] = ()) -> None:
    for finding in findings:
        out.write(json.dumps(json_safe(finding.to_json()), default=str) + "\n")
