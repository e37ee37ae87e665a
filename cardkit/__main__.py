"""`python -m cardkit`: the same as the `cardkit` console script."""

from cardkit.cli.main import main

main()
