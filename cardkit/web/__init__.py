"""The catalogue's web face: Datasette over the SQLite build.

`metadata` turns a built database into Datasette metadata (descriptions,
facets, canned queries); `server` runs Datasette on one or more databases.
"""
