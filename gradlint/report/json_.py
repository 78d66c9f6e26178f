"""A JSON array of findings, one object each (``Finding.to_json``); ``[]`` when there are none.

Lines and columns are 1-based and ``end_column`` exclusive, as in the text formats; ``verdict``
is null until the dynamic pass has looked at the finding.
"""
from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import TextIO

from gradlint.finding import Finding
from gradlint.report import json_safe


def write(findings: list[Finding], out: TextIO, sources: Mapping[str, str],
          errors: Sequence[str] = ()) -> None:
    # default=str: a check's ``details`` should hold strings, but a stray value must not crash output.
    json.dump(json_safe([finding.to_json() for finding in findings]), out, indent=2, default=str)
    out.write("\n")
