"""The command line: thin typer commands over the library."""
