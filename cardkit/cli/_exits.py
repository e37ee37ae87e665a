"""The console script's exit codes; cardkit/cli/_errors.py says which error gives which.

A module of their own so that the engines' fast path (cardkit/cli/_fast.py) names them without loading the
error reporting, which a command that succeeds never needs.
"""

EXIT_OK = 0
EXIT_FINDING = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130
