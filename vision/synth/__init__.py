"""Synthetic tiles and riichi scenes rendered from the CC0 FluffyStuff tile art.

Real photo sets have no red fives, no face-down tiles, no called (sideways) tiles and no dora
row; these renders supply them. Nothing generated here is committed: the generator makes it.
"""
