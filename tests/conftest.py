"""Shared pytest configuration.

``--update-golden`` makes ``tests/test_fixtures.py`` rewrite each ``fixtures/**/<name>.expected``
from gradlint's current output instead of comparing against it. Review the diff before
committing: the goldens are only as right as the answers they record.
"""
from __future__ import annotations


def pytest_addoption(parser):
    parser.addoption(
        "--update-golden",
        action="store_true",
        default=False,
        help="regenerate fixtures/**/*.expected from gradlint's current output instead of comparing",
    )
