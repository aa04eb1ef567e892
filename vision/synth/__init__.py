"""Synthetic tiles and riichi scenes, rendered from the CC0 FluffyStuff tile art or from tile
faces drawn by our own code in random styles (`faces`, `face_style`; training only: Pillow).

Real photo sets have no red fives, no face-down tiles, no called (sideways) tiles and no dora
row, and show few tile sets; these renders supply them. Nothing generated here is committed: the
generator makes it.
"""
