"""``python -m gradlint`` runs the command line, as the ``gradlint`` script does."""
from gradlint.cli import run

run()
