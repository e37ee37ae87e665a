"""The SQLite build of the catalogue and the card search over it.

Submodules import sqlmodel/sqlalchemy only inside the functions that build,
so importing this package stays cheap.
"""
