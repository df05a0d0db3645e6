"""The suite of inboxdesk."""

import sys

# Each worker of a run imports the package and some 200 test modules: compiled (their
# asserts rewritten) once and cached beside them, not again by every worker of every
# run, which cost a run about 30 CPU-s where PYTHONDONTWRITEBYTECODE is set. Imported
# before any conftest; the caches are git-ignored.
sys.dont_write_bytecode = False
