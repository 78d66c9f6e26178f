"""``python -m gradlint`` runs the command line, as the ``gradlint`` script does."""
import sys

from gradlint.cli import main

sys.exit(main())
