"""What Berserk Online and the tabletop CCG share: squads, the battle engine and the deal simulator.

The two games differ in their card lists (each importer sits in its own package,
`berserk_online` and `berserk_ccg`), their formats' numbers (data/formats/) and the
battle's zone facts and readings (data/battle/rules.json); the code is one.
"""
